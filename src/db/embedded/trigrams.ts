/**
 * Trigrams for the embedded server's own index kind (`{ field: 'trigram' }`, ./index-spec.ts):
 * every run of three code points of a string, case-folded.
 *
 * Folding: a code point becomes its lower case when that is again one code point, and stays
 * as it is otherwise (`İ`, whose lower case is two code points, stays `İ`). Astral characters
 * (emoji, rarer CJK) are one code point each, so `😀ab` is one trigram. The index only has to
 * hold every trigram a match must contain: ./trigram-pattern.ts keeps a character of a pattern
 * only when everything it matches under `i` (./regex.ts folds case one UTF-16 unit at a time)
 * folds to one code point here, and the real expression confirms every candidate.
 */

/** Whether a string is exactly one code point. */
const oneCodePoint = (text: string) =>
  text.length === 1 || (text.length === 2 && (text.codePointAt(0) as number) > 0xffff);

/** One code point, case-folded. */
export function foldChar(char: string): string {
  const lower = char.toLowerCase();
  return oneCodePoint(lower) ? lower : char;
}

/** Only ASCII: lower-casing the whole text folds each character as foldChar would. */
const ASCII = /^[^\u0080-\uffff]*$/;

/** The folded code points of a text. */
function foldedCodePoints(text: string): string[] {
  return Array.from(text, foldChar);
}

/** Adds the trigrams of a sequence of folded code points to `into`. */
export function addTrigrams(chars: readonly string[], into: Set<string>): void {
  for (let i = 0; i + 2 < chars.length; i++)
    into.add((chars[i] as string) + chars[i + 1] + chars[i + 2]);
}

/** The distinct trigrams of the strings among `values` (array elements included). */
export function textTrigrams(values: readonly unknown[]): Set<string> {
  const trigrams = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    if (!ASCII.test(value)) addTrigrams(foldedCodePoints(value), trigrams);
    else {
      // One UTF-16 unit per code point: the folded text's slices are its trigrams.
      const folded = value.toLowerCase();
      for (let i = 0; i + 2 < folded.length; i++) trigrams.add(folded.slice(i, i + 3));
    }
  }
  return trigrams;
}

/**
 * The same trigrams as one run of UTF-8 bytes, three code points each (a pending entry's
 * value, ./trigram-postings.ts). ASCII text is read by its character codes, with no string
 * made for each trigram.
 */
export function textTrigramBytes(values: readonly unknown[]): Buffer {
  const strings = values.filter((value): value is string => typeof value === 'string');
  if (!strings.every((text) => ASCII.test(text)))
    return Buffer.from([...textTrigrams(strings)].join(''), 'utf8');
  const seen = new Set<number>();
  const bytes = Buffer.allocUnsafe(3 * strings.reduce((sum, text) => sum + text.length, 0));
  let length = 0;
  for (const text of strings) {
    const folded = text.toLowerCase();
    for (let i = 0; i + 2 < folded.length; i++) {
      const a = folded.charCodeAt(i);
      const b = folded.charCodeAt(i + 1);
      const c = folded.charCodeAt(i + 2);
      const code = (a << 14) | (b << 7) | c;
      if (seen.has(code)) continue;
      seen.add(code);
      bytes[length++] = a;
      bytes[length++] = b;
      bytes[length++] = c;
    }
  }
  return bytes.subarray(0, length);
}

/** A trigram's bytes in the index (UTF-8: three whole code points, so no trigram prefixes another). */
export const trigramKey = (trigram: string): Buffer => Buffer.from(trigram, 'utf8');
