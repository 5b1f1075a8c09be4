import { isColorWord, isValidFade } from './colors.js';
import { type Form, isWord } from './forms.js';
import { isByte } from './words.js';

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
