/**
 * The newest reference runtime's chaos mode test (its `isChaoticSource`): a source that looks
 * like random typing is not read as a program but drawn as generative art from its letters
 * (runtime/chaos-art.ts). A score of 0.5 or more makes a source chaotic.
 */
import { isCssColorName } from './colors.js';
import { isByte, isEmbedCode } from './words.js';

/** Function names the reference counts as known words in this test (not all of them draw). */
const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set(
  [
    'wipe ink line box flood circle write paste stamp point poly embed tape tri plot shape lines',
    'rect ellipse arc curve bezier print debug log console random sin cos tan floor ceil round',
    'abs sqrt min max pow noise lerp map constrain dist choose ? ... .. if cond and or not no yes',
    'overtone mic amplitude melody speaker tone beep sound resolution scroll flip spin resetSpin',
    'smoothspin zoom blur contrast pan unpan mask unmask steal putback fill outline stroke nofill',
    'nostroke wiggle sort fade jump bake frame fps auto-density scale def set let var const tap',
    'draw now die later repeat loop range each for while label len list get first rest push pop',
    'slice concat reverse flow heading paragraph link fetch listen mul add sub div mod width',
    'height time elapsed delta rainbow zebra gradient',
  ]
    .join(' ')
    .split(' '),
);
const INDEXED = /^c(?:\d|[1-9]\d|1[0-4]\d|150)$/;

/** The reference lower-cases before it looks a word up, so `resetSpin` is never found. */
function isKnownWord(word: string): boolean {
  return KNOWN_FUNCTIONS.has(word) || isCssColorName(word) || INDEXED.test(word);
}

function isRgbText(text: string): boolean {
  const parts = text
    .replace(/_/g, ' ')
    .trim()
    .split(/[\s,]+/);
  return (parts.length === 3 || parts.length === 4) && parts.every(isByte);
}

/** One word, color, `cN`/`pN`, fade or RGB text: a one-line program that is not chaos. */
function isShorthand(trimmed: string): boolean {
  return (
    isKnownWord(trimmed.toLowerCase()) ||
    trimmed.startsWith('fade:') ||
    /^c\d+$/.test(trimmed) ||
    /^p\d+$/.test(trimmed) ||
    isRgbText(trimmed)
  );
}

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/** The reference's score for `source`; chaotic from 0.5. */
export function chaosScore(source: string): number {
  const trimmed = source.trim();
  if (trimmed.length < 3) {
    return isKnownWord(trimmed.toLowerCase()) || /^\d+$/.test(trimmed) ? 0 : 0.8;
  }
  const opens = count(source, /\(/g);
  const closes = count(source, /\)/g);
  const most = Math.max(opens, closes, 1);
  const imbalance = Math.abs(opens - closes) / most;
  if (imbalance > 0.7 && most > 3) return 0.85;

  const words = source.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? [];
  const recognition = words.length > 0 ? words.filter(isKnownWord).length / words.length : 0;
  const special = 1 - source.replace(/[^a-zA-Z0-9\s]/g, '').length / source.length;

  let score = 0;
  if (recognition < 0.2 && words.length >= 3) score += 0.4;
  else if (recognition < 0.35 && words.length >= 2) score += 0.25;
  if (special > 0.6) score += 0.35;
  else if (special > 0.45) score += 0.2;
  if (imbalance > 0.4 && most > 2) score += 0.2;
  if (words.length === 0 && trimmed.length > 10) score += 0.5;
  const bareLine = opens === 0 && closes === 0 && !source.includes(',') && !source.includes('\n');
  if (bareLine && !isShorthand(trimmed)) {
    score += 0.6;
    if (trimmed.length > 20) score += 0.3;
  }
  return score;
}

/**
 * Whether the reference draws `source` in chaos mode. Two sources are not, by this runtime's
 * choice: one with nothing but spaces and comments (there is no program to view), and a lone
 * `$code`, which the reference's own list of most-viewed works counts as an embed (`$ayc` is
 * `$bop`) and its loader substitutes right after this test.
 */
export function isChaoticSource(source: string): boolean {
  const program = source.replace(/;[^\n]*/g, '').trim();
  if (program === '' || isEmbedCode(program)) return false;
  return chaosScore(source) >= 0.5;
}
