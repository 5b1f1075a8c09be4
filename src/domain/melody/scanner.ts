import type { MelodyReport } from './report.js';

export interface WordRange {
  start: number;
  end: number;
}

export interface SectionRange {
  words: WordRange[];
  loops: number;
  /** Where the `>` that ends this section stands, if one does. */
  endsAt?: number;
}

const SECTION_SEPARATOR = /^(\d*)>$/;

export function isWhitespace(character: string | undefined): boolean {
  return character !== undefined && /\s/.test(character);
}

/** For each index, the first index at or after it holding `character`, or -1. */
export function nextIndexTable(text: string, character: string): Int32Array {
  const table = new Int32Array(text.length + 1).fill(-1);
  for (let i = text.length - 1; i >= 0; i--)
    table[i] = text[i] === character ? i : (table[i + 1] ?? -1);
  return table;
}

export interface Lookups {
  nextBraceClose: Int32Array;
  nextQuote: Int32Array;
}

/**
 * Splits a melody into sections (`>`, or `3>` to loop the section before three times) and
 * each section into tracks (whitespace outside `{...}` and `"..."`).
 */
export function scanSections(text: string, lookups: Lookups, report: MelodyReport): SectionRange[] {
  const sections: SectionRange[] = [{ words: [], loops: 1 }];
  let reportedBrace = false;
  let reportedQuote = false;
  let i = 0;
  while (i < text.length) {
    if (isWhitespace(text[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && !isWhitespace(text[i])) {
      const character = text[i];
      if (character !== '{' && character !== '"') {
        i++;
        continue;
      }
      const close = (character === '{' ? lookups.nextBraceClose : lookups.nextQuote)[i + 1] ?? -1;
      if (close >= 0) {
        i = close + 1;
        continue;
      }
      if (character === '{' && !reportedBrace) {
        report.error(i, `Unclosed '{' at ${report.where(i)}: settings need a closing '}'`);
        reportedBrace = true;
      } else if (character === '"' && !reportedQuote) {
        report.error(i, `Unclosed '"' at ${report.where(i)}: a spoken word needs a closing '"'`);
        reportedQuote = true;
      }
      i++;
    }
    const separator = SECTION_SEPARATOR.exec(text.slice(start, i));
    const current = sections[sections.length - 1];
    if (current === undefined) break;
    if (separator === null) {
      current.words.push({ start, end: i });
      continue;
    }
    const loops = separator[1];
    if (loops !== undefined && loops !== '') current.loops = Number(loops);
    current.endsAt = start;
    sections.push({ words: [], loops: 1 });
  }
  return sections;
}
