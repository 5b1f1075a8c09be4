import { describe, expect, it } from 'vitest';
import { excerptAround } from '../../../src/operations/items/works-search.js';

describe('excerptAround', () => {
  it('answers a short text whole, without marks', () => {
    expect(excerptAround('(wipe navy) (FLOOD 10 10)', 'flood')).toBe('(wipe navy) (FLOOD 10 10)');
  });

  it('cuts a long text around the first match, marking each cut', () => {
    const text = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}needle`;
    const excerpt = excerptAround(text, 'needle');
    expect(excerpt.startsWith('…a')).toBe(true);
    expect(excerpt.endsWith('b…')).toBe(true);
    expect(excerpt).toContain('NEEDLE');
    expect(excerpt.length).toBeLessThan(130);
    expect(text).toContain(excerpt.slice(1, -1));
  });

  it('keeps the match whole, however long', () => {
    const term = 'x'.repeat(200);
    const excerpt = excerptAround(`start ${term} end`, term);
    expect(excerpt).toContain(term);
  });

  it('never splits a surrogate pair, at either end', () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = `${'😀'.repeat(80)}${'.'.repeat(pad)}hit${'.'.repeat(pad)}${'😀'.repeat(80)}`;
      const excerpt = excerptAround(text, 'HIT');
      expect(excerpt).toContain('hit');
      expect(excerpt.slice(1, -1), `pad ${pad}`).toMatch(/^(?:😀)*\.*hit\.*(?:😀)*$/u);
    }
  });

  it('starts at the beginning when the term is not found as written', () => {
    expect(excerptAround('plain text', 'absent')).toBe('plain text');
  });
});
