import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import type { SoundNote, SoundOutput } from '../../../../src/domain/kidlisp/runtime/index.js';
import { MAX_SOUNDS_PER_FRAME } from '../../../../src/domain/kidlisp/runtime/sound.js';
import { run } from '../runtime/helpers.js';

const RED = [255, 0, 0, 255];

/** A SoundOutput that writes down what the runtime asks of it. */
function recorder(levels = { level: 0.25, microphone: 0.5, running: true }) {
  const notes: SoundNote[] = [];
  const holds: [number, number][] = [];
  const released: number[] = [];
  const output: SoundOutput = {
    play: (note) => notes.push(note),
    hold: (id, frequency) => holds.push([id, frequency]),
    release: (id) => released.push(id),
    level: () => levels.level,
    microphone: () => levels.microphone,
    running: () => levels.running,
  };
  return Object.assign(output, { notes, holds, released });
}

const hz = (notes: SoundNote[]) => notes.map((note) => Math.round(note.frequency * 100) / 100);

describe('sound words without a sound output (thumbnails, renders)', () => {
  it('run silently, are not named in the notice, and the picture still draws', () => {
    const source =
      '(melody cde) (bell c4) (pluck) (sub a1) (flute) (hat) (voice square a4) (overtone 1 2 3)\n(ink red) (box 0 0 4 4)';
    const { surface, runtime } = run(source, { frames: 3 });
    expect(runtime.report()).toEqual({ unsupported: [], unknown: [], problems: [] });
    expect(surface.pixel(1, 1)).toEqual(RED);
    expect(previewKidlisp(source).stats.not_drawn).toEqual([]);
  });

  it('speaker is no, amplitude, mic and amp are 0', () => {
    const { surface } = run(
      '(ink red) (box 0 0 (+ 1 amplitude mic amp (amplitude)) 1) (if speaker (box 0 3 7 1)) (if (speaker) (box 0 4 7 1))',
    );
    expect(surface.pixel(0, 0)).toEqual(RED);
    expect(surface.pixel(1, 0)).not.toEqual(RED);
    expect(surface.pixel(0, 3)).not.toEqual(RED);
    expect(surface.pixel(0, 4)).not.toEqual(RED);
  });
});

describe('melody', () => {
  it('plays its notes one a second (a plain note is 1 s), each once, from the clock', () => {
    const sound = recorder();
    run('(melody cde)', { sound, frames: 30, msPerFrame: 100 });
    expect(hz(sound.notes)).toEqual([261.63, 293.66, 329.63]);
    expect(sound.notes[0]).toMatchObject({ voice: 'sine', volume: expect.any(Number), pan: 0 });
    expect(sound.notes[0]?.seconds).toBeCloseTo(0.98);
  });

  it('loops, ignores a number (the old BPM) and registers once however often it runs', () => {
    const sound = recorder();
    run('(melody cd 170)', { sound, frames: 45, msPerFrame: 100 });
    expect(hz(sound.notes)).toEqual([261.63, 293.66, 261.63, 293.66, 261.63]);
  });

  it('reads a text the program defined, and keeps a note that is also a value name (f)', () => {
    const sound = recorder();
    run('(def tune "cd") (melody tune) (melody f)', { sound });
    expect(hz(sound.notes)).toEqual([261.63, 349.23]);
  });

  it('is locked to the clock: at 1.5 s past the epoch the second note is the one sounding', () => {
    const sound = recorder();
    run('(melody cde)', { sound, epochMs: 1500 });
    expect(hz(sound.notes)).toEqual([293.66]);
  });

  it('keeps playing after a (once (melody ...)), as the reference registers it for good', () => {
    const sound = recorder();
    run('(once (melody c.d.))', { sound, frames: 10, msPerFrame: 100 });
    expect(hz(sound.notes)).toEqual([261.63, 293.66]);
  });

  it('plays parallel tracks and the {square} waveform of the clock-melody language', () => {
    const sound = recorder();
    run('(melody c "{square} e")', { sound });
    expect(sound.notes.map((note) => [note.voice, Math.round(note.frequency)])).toEqual([
      ['sine', 262],
      ['square', 330],
    ]);
  });

  it('names a melody it cannot read once, and plays nothing for it', () => {
    const sound = recorder();
    const { runtime } = run('(melody xyz)', { sound, frames: 5 });
    expect(sound.notes).toEqual([]);
    expect(runtime.report().problems).toEqual([
      '(melody "xyz") could not be read: No playable note: write notes a to g, e.g. cdefg',
    ]);
  });
});

describe('voices', () => {
  it('take a note as written (c4 is a note here, not a color), then volume and pan', () => {
    const sound = recorder();
    run('(bell c4 0.3 -1) (pluck f#3) (sub bb1 (/ 1 4)) (flute g4 2 5)', { sound });
    expect(
      sound.notes.map((note) => [note.voice, Math.round(note.frequency), note.volume, note.pan]),
    ).toEqual([
      ['bell', 262, 0.3, -1],
      ['pluck', 185, 0.5, 0],
      ['sub', 58, 0.25, 0],
      ['flute', 392, 1, 1],
    ]);
  });

  it("use the reference's default notes and volumes", () => {
    const sound = recorder();
    run('(pluck) (bell) (sub) (flute) (hat) (voice)', { sound });
    expect(
      sound.notes.map((note) => [note.voice, Math.round(note.frequency), note.volume]),
    ).toEqual([
      ['pluck', 262, 0.5],
      ['bell', 659, 0.4],
      ['sub', 55, 0.5],
      ['flute', 392, 0.3],
      ['hat', 0, 0.14],
      ['sine', 262, 0.4],
    ]);
  });

  it('voice takes type, note, volume, pan and beats (a beat is half a second)', () => {
    const sound = recorder();
    run('(voice square a4 0.2 0.5 2) (voice kazoo 880)', { sound });
    expect(sound.notes[0]).toMatchObject({
      voice: 'square',
      frequency: 440,
      volume: 0.2,
      pan: 0.5,
      seconds: 1,
    });
    expect(sound.notes[1]).toMatchObject({ voice: 'sine', frequency: 880 });
  });

  it('sound in a tap handler plays when the visitor taps', () => {
    const sound = recorder();
    const { runtime } = run('(tap (bell e5))', { sound });
    expect(sound.notes).toEqual([]);
    runtime.pointer({ type: 'touch', x: 1, y: 1 });
    runtime.frame({ frame: 1, ms: 16 });
    expect(hz(sound.notes)).toEqual([659.26]);
  });

  it(`starts at most ${MAX_SOUNDS_PER_FRAME} sounds a frame and says so`, () => {
    const sound = recorder();
    const { runtime } = run('(repeat 100 (hat))', { sound });
    expect(sound.notes).toHaveLength(MAX_SOUNDS_PER_FRAME);
    expect(runtime.report().problems).toEqual([
      `More than ${MAX_SOUNDS_PER_FRAME} sounds started in one frame; the rest were not played`,
    ]);
  });
});

describe('overtone, amplitude, speaker, mic, amp', () => {
  it('overtone holds one tone per call site, retuned each frame, released when it stops running', () => {
    const sound = recorder();
    run('(overtone 220 3 2) (if (< frame 2) (overtone))', { sound, frames: 4 });
    const ids = new Set(sound.holds.map(([id]) => id));
    expect(ids.size).toBe(2);
    expect(sound.holds.filter(([, f]) => f === 330)).toHaveLength(4);
    expect(sound.holds.filter(([, f]) => f === 440)).toHaveLength(2);
    expect(sound.released).toHaveLength(1);
  });

  it('read the output: amplitude 0..1, speaker yes, mic 0..1 and amp 0..10 from the microphone', () => {
    const sound = recorder();
    const { surface } = run(
      '(ink red) (box 0 0 (* amplitude 8) 1) (box 0 1 (* mic 10) 1) (box 0 2 amp 1) (if speaker (box 0 3 7 1))',
      { sound },
    );
    const width = (row: number) =>
      Array.from({ length: 20 }, (_, x) => surface.pixel(x, row)).filter(
        (pixel) => pixel.join() === RED.join(),
      ).length;
    expect([width(0), width(1), width(2), width(3)]).toEqual([2, 5, 5, 7]);
  });
});

const SOUND_WORDS =
  'melody overtone pluck bell sub flute hat voice amplitude speaker mic amp'.split(' ');
const ARGS = [
  'c4',
  'f#3',
  'bb5',
  'e9',
  'x',
  '"cde"',
  'cde',
  'c.d',
  '?',
  '-1',
  '0',
  '0.5',
  '1e9',
  'w',
  '(+ 1 2)',
  'sine',
  'square',
];

describe('sound words: properties', () => {
  it('never throw, and every note is finite with volume 0..1, pan -1..1 and 0.01..10 s', () => {
    const form = fc
      .tuple(fc.constantFrom(...SOUND_WORDS), fc.array(fc.constantFrom(...ARGS), { maxLength: 6 }))
      .map(([word, args]) => `(${[word, ...args].join(' ')})`);
    fc.assert(
      fc.property(
        fc.array(form, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 1e12 }),
        (forms, epochMs) => {
          const sound = recorder();
          const source = forms.join('\n');
          expect(() => run(source, { sound, frames: 3, msPerFrame: 400, epochMs })).not.toThrow();
          for (const note of sound.notes) {
            expect(Number.isFinite(note.frequency)).toBe(true);
            expect(note.volume).toBeGreaterThanOrEqual(0);
            expect(note.volume).toBeLessThanOrEqual(1);
            expect(Math.abs(note.pan)).toBeLessThanOrEqual(1);
            expect(note.seconds).toBeGreaterThanOrEqual(0.01);
            expect(note.seconds).toBeLessThanOrEqual(10);
          }
          for (const [, frequency] of sound.holds) expect(Number.isFinite(frequency)).toBe(true);
          const silent = run(source, { frames: 2 });
          expect(silent.runtime.report().unsupported).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
