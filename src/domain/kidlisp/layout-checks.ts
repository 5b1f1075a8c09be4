import { isBuiltin } from './builtins.js';
import { isColorWord, isValidFade } from './colors.js';
import { type Form, isWord } from './forms.js';
import type { Token } from './tokenizer.js';
import { isByte, isEmbedCode } from './words.js';

function isBackdropWord(word: string): boolean {
  return isColorWord(word) || isValidFade(word);
}

/**
 * How many leading top-level forms set the backdrop: a bare color or fade, a one-word list of
 * one (`(beige)`), or three or four leading numbers 0..255 (RGB, RGBA). Zero when none does.
 */
export function backdropLength(forms: readonly Form[]): number {
  const first = forms[0];
  if (first === undefined) return 0;
  if (isWord(first) && isBackdropWord(first.text)) return 1;
  if (first.kind === 'list' && first.items.length === 1) {
    const only = first.items[0];
    if (isWord(only) && isBackdropWord(only.text)) return 1;
  }
  let bytes = 0;
  while (bytes < 4) {
    const form = forms[bytes];
    if (!isWord(form) || !isByte(form.text)) break;
    bytes++;
  }
  return bytes >= 3 ? bytes : 0;
}

function isSafeSingleWord(word: string): boolean {
  return isBuiltin(word) || isColorWord(word) || isValidFade(word) || isEmbedCode(word);
}

/**
 * The newest runtime draws a one-line program with no parens and no commas as noise
 * ("chaos mode") unless it is exactly one known word or color, or an RGB triple.
 */
export function drawsAsNoise(tokens: readonly Token[], multiLine: boolean): boolean {
  if (multiLine || tokens.length === 0) return false;
  if (tokens.some((token) => token.kind !== 'word' && token.kind !== 'string')) return false;
  const first = tokens[0];
  if (tokens.length === 1 && first?.kind === 'word' && isSafeSingleWord(first.text)) return false;
  const isRgb =
    (tokens.length === 3 || tokens.length === 4) &&
    tokens.every((token) => token.kind === 'word' && isByte(token.text));
  return !isRgb;
}
