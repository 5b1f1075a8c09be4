import { describe, expect, it } from 'vitest';
import { isBuiltin } from '../../../../src/domain/kidlisp/builtins.js';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { wordStates } from '../../../../src/domain/kidlisp/runtime/index.js';
import { withReason } from '../../../../src/domain/kidlisp/runtime/meaningless-words.js';
import { run } from './helpers.js';

describe('wordStates: every built-in word with its state in this runtime', () => {
  it('lists each built-in once, runs for the drawn ones and reads as 0 for live values', () => {
    const states = wordStates();
    const byWord = new Map(states.map((entry) => [entry.word, entry.state]));
    expect(states.every((entry) => isBuiltin(entry.word))).toBe(true);
    expect(byWord.get('box')).toBe('runs');
    expect(byWord.get('wipe')).toBe('runs');
    expect(byWord.get('cube')).toBe('not drawn');
    expect(byWord.get('beat')).toBe('reads as 0');
    // A word the runtime does not draw is one the runtime reports when a program uses it.
    const undrawn = states.filter(
      (state) => state.state === 'not drawn' && !state.word.includes('-'),
    );
    for (const entry of undrawn.slice(0, 20)) {
      const { runtime } = run(`(wipe red) (${entry.word})`);
      expect(runtime.report().unsupported, entry.word).toContain(withReason(entry.word));
    }
  });

  it('the pointer, the clock and sound run: not listed as undrawn by the validator nor the notice', () => {
    const byWord = new Map(wordStates().map((entry) => [entry.word, entry.state]));
    const source =
      '(wipe navy)\n(ink (if down 255 0) 0 0)\n(box penx peny (% clock 9) 4)\n(draw (box dx dy mic amp))\n(melody cde) (bell c4) (overtone 1 2 3)';
    const { runtime } = run(source);
    for (const word of [
      'penx',
      'peny',
      'down',
      'clock',
      'dx',
      'dy',
      'mic',
      'amp',
      'melody',
      'bell',
    ]) {
      expect(byWord.get(word), word).toBe('runs');
      expect(runtime.report().unsupported, word).not.toContain(word);
    }
    expect(previewKidlisp(source).stats.not_drawn).toEqual([]);
  });
});
