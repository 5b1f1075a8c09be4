import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MELODY_MAX_LENGTH,
  type MelodyParse,
  parseMelody,
} from '../../../src/domain/melody/index.js';

function expectWellFormed(melody: MelodyParse): void {
  expect(melody.valid).toBe(melody.errors.length === 0);
  expect(melody.sections.flatMap((section) => section.tracks)).toEqual(melody.tracks);
  for (const event of melody.tracks.flatMap((track) => track.events)) {
    expect(event.beats).toBeGreaterThan(0);
    expect(event.seconds).toBe(event.beats / 2);
    expect(event.volume).toBeGreaterThanOrEqual(0);
    expect(event.volume).toBeLessThanOrEqual(1);
    if (event.frequency !== undefined) expect(Number.isFinite(event.frequency)).toBe(true);
  }
}

const melodyCharacters = fc.constantFrom(
  ...'abcdefgABCDEFG0123456789#sb.,_-+<>[]{}^\'"*x|~ \n'.split(''),
  '{square}',
  '{0.5}',
  '{100hz}',
  '{...}',
  '3>',
  ' > ',
  'z',
  '…',
  '😀',
);
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: melodyCharacters, maxLength: 200 }),
);

describe('parseMelody on arbitrary text', () => {
  it('never throws and always answers consistently', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expectWellFormed(parseMelody(text));
      }),
      { numRuns: 1_500 },
    );
  });

  it('never throws on text near and over the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: melodyCharacters, minLength: 2_000, maxLength: MELODY_MAX_LENGTH + 500 }),
        (text) => {
          expectWellFormed(parseMelody(text));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('parses any run of plain notes without errors or warnings', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'cdefgaCDEFGA'.split('')),
          minLength: 1,
          maxLength: 100,
        }),
        (text) => {
          const melody = parseMelody(text);
          expect(melody).toMatchObject({ valid: true, errors: [], warnings: [] });
          expect(melody.tracks[0]?.events).toHaveLength(text.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
