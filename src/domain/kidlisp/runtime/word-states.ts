/**
 * What this runtime does with each word of the language, read from its own table of built-ins
 * (library.ts): the KidLisp reference resource (`service://kidlisp-reference`) lists it.
 */
import { BUILTIN_GROUPS, LIVE_INPUT_VALUES } from '../builtins.js';
import { BUILTINS } from './library.js';

/** `runs`: the runtime draws or evaluates it; `reads as 0`: a value from outside it cannot know. */
export type WordState = 'runs' | 'reads as 0' | 'not drawn';

export interface WordEntry {
  group: string;
  word: string;
  state: WordState;
}

const LIVE_INPUT: ReadonlySet<string> = new Set(LIVE_INPUT_VALUES);

function wordState(word: string): WordState {
  if (BUILTINS.has(word)) return 'runs';
  return LIVE_INPUT.has(word) ? 'reads as 0' : 'not drawn';
}

/** Every built-in word of the language, by family, with its state in this runtime. */
export function wordStates(): WordEntry[] {
  return Object.entries(BUILTIN_GROUPS).flatMap(([group, words]) =>
    words.map((word) => ({ group, word, state: wordState(word) })),
  );
}
