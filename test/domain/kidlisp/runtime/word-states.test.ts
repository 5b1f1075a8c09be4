import { describe, expect, it } from 'vitest';
import { isBuiltin } from '../../../../src/domain/kidlisp/builtins.js';
import { wordStates, wordsNotDrawn } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from './helpers.js';

/** Programs whose every form runs on the first frame, so the runtime meets every word the scan reads. */
const PROGRAMS = [
  '(wipe navy) (ink red) (box 0 0 20 20)',
  '(wipe blue) (flood 1 1) (ink clock) (box mic 0 10 10)',
  '(melody "cde") (wipe red)',
  'red green blue',
  '(def flood 3) (box flood 0 10 10)',
  '(stamp #abc) #abc',
  '(box penx/2 0 10 10)',
  '(frobnicate 1) (wipe red)',
  'black\n(later cross x y (line x-10 y-10 x+10 y+10))\n(cross 16 32)\n(cube 1)',
];

describe('wordsNotDrawn: the words a viewer would not draw, read without running', () => {
  it.each(PROGRAMS)('names what the runtime reports as unsupported for %s', (source) => {
    const { runtime } = run(source, { frames: 2 });
    expect(wordsNotDrawn(source).sort()).toEqual([...runtime.report().unsupported].sort());
  });

  it('counts words behind a timer or a condition, which the first frame does not reach', () => {
    expect(wordsNotDrawn('(wipe red) (5s (flood 1 1)) (if no (cube 3))')).toEqual([
      'flood',
      'cube',
    ]);
  });

  it('names a bare built-in the runtime passes over without a word (once noise)', () => {
    expect(wordsNotDrawn('(wipe red) (once noise)')).toEqual(['noise']);
  });

  it('never throws, whatever it is given', () => {
    for (const source of ['', ')))', '(((', '"', '(1s', 'fade:', '#', '$']) {
      expect(Array.isArray(wordsNotDrawn(source))).toBe(true);
    }
  });
});

describe('wordStates: every built-in word with its state in this runtime', () => {
  it('lists each built-in once, runs for the drawn ones and reads as 0 for live values', () => {
    const states = wordStates();
    const byWord = new Map(states.map((entry) => [entry.word, entry.state]));
    expect(states.every((entry) => isBuiltin(entry.word))).toBe(true);
    expect(byWord.get('box')).toBe('runs');
    expect(byWord.get('wipe')).toBe('runs');
    expect(byWord.get('flood')).toBe('not drawn');
    expect(byWord.get('mic')).toBe('reads as 0');
    // A word the runtime does not draw is one the runtime reports when a program uses it.
    for (const entry of states.filter((state) => state.state === 'not drawn').slice(0, 20)) {
      const { runtime } = run(`(wipe red) (${entry.word})`);
      expect(runtime.report().unsupported, entry.word).toContain(entry.word);
    }
  });
});
