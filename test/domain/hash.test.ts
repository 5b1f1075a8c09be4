import { describe, expect, it } from 'vitest';
import { sourceHash } from '../../src/domain/hash.js';

describe('sourceHash', () => {
  it('is the SHA-256 hex of the trimmed source', () => {
    // sha256("abc")
    expect(sourceHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('ignores surrounding whitespace, so re-publishing with a trailing newline dedups', () => {
    expect(sourceHash('  (wipe blue)\n\n')).toBe(sourceHash('(wipe blue)'));
  });

  it('differs when inner content differs', () => {
    expect(sourceHash('(wipe blue)')).not.toBe(sourceHash('(wipe  blue)'));
  });

  it('hashes unicode as UTF-8', () => {
    expect(sourceHash('é')).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceHash('é')).not.toBe(sourceHash('e'));
  });
});
