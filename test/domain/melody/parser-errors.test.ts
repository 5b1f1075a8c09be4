import { describe, expect, it } from 'vitest';
import { MELODY_MAX_LENGTH, parseMelody } from '../../../src/domain/melody/index.js';

describe('melody errors', () => {
  it.each(['', '   ', '\n\t'])('rejects %j as empty', (text) => {
    expect(parseMelody(text)).toMatchObject({
      valid: false,
      errors: ['Melody is empty'],
      tracks: [],
    });
  });

  it('rejects a melody over 10,000 characters', () => {
    expect(parseMelody('c'.repeat(MELODY_MAX_LENGTH + 1))).toMatchObject({
      valid: false,
      errors: ['Melody is 10,001 characters, over the limit of 10,000'],
    });
  });

  it('accepts exactly 10,000 characters', () => {
    const melody = parseMelody('cdefgab '.repeat(1250));
    expect(melody.valid).toBe(true);
    expect(melody.tracks).toHaveLength(1250);
  });

  it('rejects a melody without a playable note', () => {
    expect(parseMelody('___ 5 |')).toMatchObject({
      valid: false,
      errors: ['No playable note: write notes a to g, e.g. cdefg'],
    });
  });

  it('rejects a melody whose every track is muted', () => {
    expect(parseMelody('xceg xdfa')).toMatchObject({
      valid: false,
      errors: ['No playable note: every track with notes is muted (x)'],
    });
  });

  it('rejects an unclosed { and skips only the brace', () => {
    const melody = parseMelody('cd {square');
    expect(melody.valid).toBe(false);
    expect(melody.errors).toEqual(["Unclosed '{' at column 4: settings need a closing '}'"]);
    expect(melody.tracks[0]?.events.map((event) => event.note)).toEqual(['c', 'd']);
  });

  it('rejects an unclosed quote', () => {
    const melody = parseMelody('cde"hello');
    expect(melody.valid).toBe(false);
    expect(melody.errors).toEqual([`Unclosed '"' at column 4: a spoken word needs a closing '"'`]);
  });

  it('names lines and columns in a melody over several lines', () => {
    expect(parseMelody('cde\nfg {sine').errors).toEqual([
      "Unclosed '{' at line 2, column 4: settings need a closing '}'",
    ]);
  });
});
