import { isBuiltin } from '../builtins.js';
import { isFadeWord } from '../colors.js';
import { withoutColonParameter } from '../words.js';
import { BUILTINS } from './library.js';

/**
 * A built-in word (or live input value) of the language that this runtime does not draw: the
 * runtime's own table of words (`BUILTINS`) decides, so the validator and the viewer's notice
 * name the same words. `outline:3` is `outline`; fade words (`fade:red-blue`) are colors.
 */
export function isUndrawnBuiltin(word: string): boolean {
  if (isFadeWord(word)) return false;
  const name = withoutColonParameter(word);
  return isBuiltin(name) && !BUILTINS.has(name);
}
