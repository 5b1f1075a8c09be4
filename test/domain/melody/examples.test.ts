import { describe, expect, it } from 'vitest';
import { parseMelody } from '../../../src/domain/melody/index.js';
import { spellTracks } from './helpers.js';

// docs/clock-melody.md, "Examples that parse".
const EXAMPLES = [
  'cdefgab',
  '5cdefg',
  '4cd5ef6g',
  'c +d +e -f',
  'c... defg',
  'c,, defg',
  '{square} cdefg',
  '{square:0.3} cdefg',
  '{0.8} c{0.2}d{1.0}e',
  'ceg dfa',
  'xceg dfa',
  '{triangle} cd ef ga',
  '{100hz}ceg{50hz}abag{0hz}bab',
  'cde"hi"gab',
  'ceg dfa > abc def',
  'd.d..d.e..g..e.f..e.fd.',
];

describe('examples in clock-melody.md', () => {
  it.each(EXAMPLES)('%j parses with notes and no errors', (text) => {
    const melody = parseMelody(text);
    expect(melody.errors).toEqual([]);
    expect(melody.valid).toBe(true);
    expect(
      melody.tracks.flatMap((track) => track.events).some((event) => event.kind === 'note'),
    ).toBe(true);
  });

  it.each(EXAMPLES.filter((text) => !text.includes('#')))('%j has no warnings', (text) => {
    expect(parseMelody(text).warnings).toEqual([]);
  });

  it('reads cdefgab as one track of seven notes in octave 4', () => {
    expect(spellTracks(parseMelody('cdefgab').tracks)).toEqual([
      ['c4', 'd4', 'e4', 'f4', 'g4', 'a4', 'b4'],
    ]);
  });

  it('keeps an octave digit for the notes after it', () => {
    expect(spellTracks(parseMelody('5cdefg').tracks)).toEqual([['c5', 'd5', 'e5', 'f5', 'g5']]);
    expect(spellTracks(parseMelody('4cd5ef6g').tracks)).toEqual([['c4', 'd4', 'e5', 'f5', 'g6']]);
  });

  it('reads c4 e4 g4 c5 as four one-note tracks C4 E4 G4 C4, with a trailing-octave warning', () => {
    const melody = parseMelody('c4 e4 g4 c5');
    expect(melody.valid).toBe(true);
    expect(spellTracks(melody.tracks)).toEqual([['c4'], ['e4'], ['g4'], ['c4']]);
    expect(melody.warnings).toContain(
      "Octave '5' at column 11 comes after the last note of its track and does nothing: octaves go before notes (5c, not c5)",
    );
    expect(melody.warnings.every((warning) => warning.startsWith('Octave'))).toBe(true);
  });

  it('reads ceg dfa as two parallel tracks', () => {
    expect(spellTracks(parseMelody('ceg dfa').tracks)).toEqual([
      ['c4', 'e4', 'g4'],
      ['d4', 'f4', 'a4'],
    ]);
  });

  it('mutes a track that starts with x', () => {
    expect(parseMelody('xceg dfa').tracks.map((track) => track.muted)).toEqual([true, false]);
  });

  it('shifts octaves with + and - before a note', () => {
    expect(spellTracks(parseMelody('c +d +e -f').tracks)).toEqual([['c4'], ['d5'], ['e5'], ['f3']]);
  });

  it('applies a leading setting to every track', () => {
    const melody = parseMelody('{triangle} cd ef ga');
    expect(melody.tracks).toHaveLength(3);
    expect(melody.tracks.flatMap((track) => track.events).map((event) => event.waveform)).toEqual(
      Array(6).fill('triangle'),
    );
    const square = parseMelody('{square:0.3} cdefg').tracks[0]?.events[0];
    expect(square).toMatchObject({ waveform: 'square', volume: 0.3 });
  });

  it('changes volume mid-track with {0.2} and {1.0}', () => {
    const volumes = parseMelody('{0.8} c{0.2}d{1.0}e').tracks[0]?.events.map(
      (event) => event.volume,
    );
    expect(volumes).toEqual([0.8, 0.2, 1]);
  });

  it('shifts pitch by {Nhz} until changed', () => {
    const frequencies = parseMelody('{100hz}ceg{50hz}abag{0hz}bab').tracks[0]?.events.map(
      (event) => event.frequency ?? 0,
    );
    expect(frequencies?.[0]).toBeCloseTo(261.6256 + 100, 3);
    expect(frequencies?.[3]).toBeCloseTo(440 + 50, 6);
    expect(frequencies?.[8]).toBeCloseTo(440, 6);
  });

  it('speaks the word in cde"hi"gab between the notes', () => {
    expect(spellTracks(parseMelody('cde"hi"gab').tracks)).toEqual([
      ['c4', 'd4', 'e4', '"hi"', 'g4', 'a4', 'b4'],
    ]);
  });

  it('plays ceg dfa > abc def as two sections of two tracks', () => {
    const melody = parseMelody('ceg dfa > abc def');
    expect(melody.sections.map((section) => spellTracks(section.tracks))).toEqual([
      [
        ['c4', 'e4', 'g4'],
        ['d4', 'f4', 'a4'],
      ],
      [
        ['a4', 'b4', 'c4'],
        ['d4', 'e4', 'f4'],
      ],
    ]);
    expect(melody.tracks).toHaveLength(4);
  });

  it('reads the rhythm of d.d..d.e..g..e.f..e.fd.', () => {
    const events = parseMelody('d.d..d.e..g..e.f..e.fd.').tracks[0]?.events ?? [];
    expect(events.map((event) => event.note)).toEqual([
      'd',
      'd',
      'd',
      'e',
      'g',
      'e',
      'f',
      'e',
      'f',
      'd',
    ]);
    expect(events.map((event) => event.beats)).toEqual([1, 0.5, 1, 0.5, 0.5, 1, 0.5, 1, 1, 1]);
  });
});
