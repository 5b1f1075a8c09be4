import { describe, expect, it } from 'vitest';
import { parseMelody } from '../../../src/domain/melody/index.js';
import { beatsOf, spellTracks } from './helpers.js';

const firstTrack = (text: string) => parseMelody(text).tracks[0]?.events ?? [];

describe('durations', () => {
  it('gives a plain note 2 units, one second at the default tempo', () => {
    expect(firstTrack('c')[0]).toMatchObject({ beats: 2, seconds: 1 });
  });

  it('halves with dots and doubles with commas', () => {
    expect(beatsOf(parseMelody('c. d.. e... f, g,,').tracks)).toEqual([
      [1],
      [0.5],
      [0.25],
      [4],
      [8],
    ]);
    expect(parseMelody('e...').tracks[0]?.events[0]?.seconds).toBe(0.125);
  });

  it('keeps a note’s marks for the unmarked notes after it in its track', () => {
    expect(firstTrack('c...defg,ab').map((event) => event.beats)).toEqual([
      0.25, 0.25, 0.25, 0.25, 4, 4, 4,
    ]);
  });

  it('starts every track at the default duration', () => {
    expect(beatsOf(parseMelody('c... defg').tracks)).toEqual([[0.25], [2, 2, 2, 2]]);
  });

  it('sets the duration for what follows with {...} and {,}', () => {
    expect(firstTrack('{...}cd{,}e{.}f').map((event) => event.beats)).toEqual([0.25, 0.25, 4, 1]);
  });

  it('reads _ as a rest that takes its own marks', () => {
    expect(firstTrack('c._,d').map((event) => [event.kind, event.beats])).toEqual([
      ['note', 1],
      ['rest', 4],
      ['note', 1],
    ]);
  });

  it('reads a run of - not followed by a note as a rest of 2·2ⁿ units', () => {
    expect(firstTrack('c-d--').map((event) => [event.kind, event.beats])).toEqual([
      ['note', 2],
      ['note', 2],
      ['rest', 8],
    ]);
    expect(firstTrack('c - d').map((event) => event.kind)).toEqual(['note']);
    expect(beatsOf(parseMelody('c - d').tracks)).toEqual([[2], [4], [2]]);
  });
});

describe('octaves', () => {
  it('defaults to octave 4', () => {
    expect(firstTrack('a')[0]).toMatchObject({ note: 'a', octave: 4 });
  });

  it('keeps + and - shifts and adds them up', () => {
    expect(spellTracks(parseMelody('c+c+cd--e').tracks)).toEqual([['c4', 'c5', 'c6', 'd6', 'e4']]);
    expect(spellTracks(parseMelody('++c --d').tracks)).toEqual([['c6'], ['d2']]);
  });

  it('resets shifts with an octave digit', () => {
    expect(spellTracks(parseMelody('c+d5e+f').tracks)).toEqual([['c4', 'd5', 'e5', 'f6']]);
  });

  it('reads one digit at a time', () => {
    expect(spellTracks(parseMelody('10c').tracks)).toEqual([['c0']]);
  });
});

describe('pitch', () => {
  it('tunes a4 to 440 Hz and doubles per octave', () => {
    expect(firstTrack('a')[0]?.frequency).toBeCloseTo(440, 9);
    expect(firstTrack('5a')[0]?.frequency).toBeCloseTo(880, 9);
    expect(firstTrack('3a')[0]?.frequency).toBeCloseTo(220, 9);
  });

  it('uses equal temperament for the other notes', () => {
    expect(firstTrack('c')[0]?.frequency).toBeCloseTo(261.6256, 3);
    expect(firstTrack('0c')[0]?.frequency).toBeCloseTo(16.3516, 3);
    expect(firstTrack('a#')[0]?.frequency).toBeCloseTo(466.1638, 3);
  });

  it('reads # and s as sharps, in upper or lower case notes', () => {
    expect(firstTrack('csC#').map((event) => event.note)).toEqual(['c#', 'c#']);
  });

  it('reads b as a flat only when neither a note letter nor the end of the track follows', () => {
    expect(firstTrack('eb.c').map((event) => event.note)).toEqual(['d#', 'c']);
    expect(firstTrack('ebc').map((event) => event.note)).toEqual(['e', 'b', 'c']);
    expect(spellTracks(parseMelody('eb ab_').tracks)).toEqual([
      ['e4', 'b4'],
      ['g#4', '_'],
    ]);
  });

  it('adds a {Nhz} shift to the frequency', () => {
    expect(firstTrack('{-40hz}a')[0]?.frequency).toBeCloseTo(400, 9);
    expect(firstTrack('{50hz&}a')[0]?.frequency).toBeCloseTo(490, 9);
  });
});

describe('other marks', () => {
  it('swings a note early with < or [ and late with > or ]', () => {
    expect(firstTrack('<c[d>e]fg').map((event) => event.swing)).toEqual([
      'early',
      'early',
      'late',
      'late',
      undefined,
    ]);
  });

  it('toggles struck notes with ^', () => {
    expect(firstTrack('c^de^f').map((event) => event.struck ?? false)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("lets ' make a note ring longer without changing its duration", () => {
    expect(firstTrack("c''d")[0]).toMatchObject({ ring: 2, beats: 2 });
  });

  it('skips separators and mutation marks', () => {
    const melody = parseMelody('cd|ef~g* ga*');
    expect(melody.warnings).toEqual([]);
    expect(spellTracks(melody.tracks)).toEqual([
      ['c4', 'd4', 'e4', 'f4', 'g4'],
      ['g4', 'a4'],
    ]);
  });

  it('keeps spaces inside a spoken word', () => {
    expect(spellTracks(parseMelody('c"hello there"d e').tracks)).toEqual([
      ['c4', '"hello there"', 'd4'],
      ['e4'],
    ]);
  });

  it('accepts every waveform the player knows', () => {
    for (const waveform of ['sine', 'square', 'sawtooth', 'triangle', 'noise-white', 'sample']) {
      expect(firstTrack(`{${waveform}}c`)[0]?.waveform).toBe(waveform);
    }
  });
});

describe('sections', () => {
  it('loops the section before N> N times', () => {
    expect(parseMelody('cdefg 3> abcde').sections.map((section) => section.loops)).toEqual([3, 1]);
  });

  it('carries settings into the next section', () => {
    const melody = parseMelody('{square} ceg > dfa');
    expect(melody.sections[1]?.tracks[0]?.events[0]?.waveform).toBe('square');
  });

  it('reads > inside a track as late swing, not a section', () => {
    const melody = parseMelody('c>d');
    expect(melody.sections).toHaveLength(1);
    expect(melody.tracks[0]?.events[1]?.swing).toBe('late');
  });
});
