import { describe, expect, it } from 'vitest';
import { parseMelody } from '../../../src/domain/melody/index.js';
import { spellTracks } from './helpers.js';

describe('melody warnings', () => {
  it('warns once per unknown character and skips it', () => {
    const melody = parseMelody('cdzez…z');
    expect(melody.valid).toBe(true);
    expect(melody.warnings).toEqual([
      "Unknown character 'z' at column 3 is ignored (3 times)",
      "Unknown character '…' at column 6 is ignored",
    ]);
    expect(spellTracks(melody.tracks)).toEqual([['c4', 'd4', 'e4']]);
  });

  it('names a character outside the basic plane whole', () => {
    expect(parseMelody('c😀d').warnings).toEqual(["Unknown character '😀' at column 2 is ignored"]);
  });

  it('says why a known symbol in the wrong place is skipped', () => {
    expect(parseMelody('.c +5d').warnings).toEqual([
      "'.' at column 1 is ignored: duration marks go right after a note or rest",
      "'+' at column 4 is ignored: octave shifts go right before a note",
    ]);
  });

  it('warns about unknown settings', () => {
    expect(parseMelody('{wobble}cde').warnings).toEqual([
      "Unknown setting '{wobble}' at column 1 is ignored",
    ]);
  });

  it.each([
    ['{1.5}c', "Volume 1.5 in '{1.5}' at column 1 is outside 0..1; it plays as 1", 1],
    ['{-0.2}c', "Volume -0.2 in '{-0.2}' at column 1 is outside 0..1; it plays as 0", 0],
    ['{square:2}c', "Volume 2 in '{square:2}' at column 1 is outside 0..1; it plays as 1", 1],
  ])('warns about volume outside 0..1 in %j', (text, warning, volume) => {
    const melody = parseMelody(text);
    expect(melody.warnings).toEqual([warning]);
    expect(melody.tracks[0]?.events[0]?.volume).toBe(volume);
  });

  it.each([
    'e#',
    'b#',
    'cb.',
    'fb_',
    'es',
    'bs',
  ])('warns that %j is not a real note and plays C', (text) => {
    const melody = parseMelody(text);
    expect(melody.warnings.filter((warning) => warning.includes('not a real note'))).toHaveLength(
      1,
    );
    expect(melody.tracks[0]?.events[0]).toMatchObject({ note: 'c', octave: 4 });
  });

  it('warns about an octave digit after the last note', () => {
    expect(parseMelody('cde5').warnings).toEqual([
      "Octave '5' at column 4 comes after the last note of its track and does nothing: octaves go before notes (5c, not c5)",
    ]);
  });

  it('warns about an octave digit with no note after it in its track', () => {
    expect(parseMelody('5 cde').warnings).toEqual([
      "Octave '5' at column 1 has no note after it in its track and does nothing: octaves go before notes (5c, not c5)",
    ]);
  });

  it('does not warn about an octave digit between notes', () => {
    expect(parseMelody('c5d').warnings).toEqual([]);
  });

  it('warns once that # cuts a clock URL short', () => {
    const melody = parseMelody('c#d#e');
    expect(melody.warnings).toEqual([
      "'#' at column 2 cuts a clock URL short (everything after it is lost); write sharps with 's' (cs, not c#)",
    ]);
    expect(melody.tracks[0]?.events.map((event) => event.note)).toEqual(['c#', 'd#', 'e']);
  });

  it('warns about a track with no notes', () => {
    expect(parseMelody('cde | x').warnings).toEqual([
      "Track '|' at column 5 has no notes",
      "Track 'x' at column 7 has no notes",
    ]);
  });

  it('warns about an empty section', () => {
    expect(parseMelody('cde > > fga').warnings).toEqual(["Empty section before '>' at column 7"]);
  });

  it('caps a long list of warnings', () => {
    const melody = parseMelody(Array.from({ length: 80 }, () => 'c4').join(' '));
    expect(melody.warnings).toHaveLength(51);
    expect(melody.warnings.at(-1)).toBe('30 more warnings not shown');
  });
});
