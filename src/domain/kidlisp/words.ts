/** Classifies bare words the way the reference reader and evaluator read them. */

const CLEAN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const STARTS_LIKE_NUMBER = /^[+-]?\.?\d/;
const TIMING_WORD = /^\d*\.?\d+s(?:\.\.\.?|!)?$/;
const FRAME_TIMING_WORD = /^\d*\.?\d+f(?:\.\.\.?|!)?$/;
const IDENTIFIER = /^[$a-zA-Z_]\w*$/;
const EMBED_CODE = /^\$[0-9A-Za-z]{3,12}$/;
const PAINTING_CODE = /^#[0-9A-Za-z]{1,8}$/;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const STARTS_WITH_LETTER = /^[a-zA-Z_]/;
const STARTS_WITH_LETTER_OR_DOLLAR = /^[a-zA-Z_$]/;

/** A cheap first-character test so that most words skip the number patterns. */
function mayBeNumeric(word: string): boolean {
  const code = word.charCodeAt(0);
  return (code >= 48 && code <= 57) || code === 46 || code === 43 || code === 45; // 0-9 . + -
}

export function isCleanNumber(word: string): boolean {
  return mayBeNumeric(word) && CLEAN_NUMBER.test(word);
}

/** `1s`, `0.5s`, `.25s`, `2s...`, `2s..`, `0.5s!` */
export function isTimingWord(word: string): boolean {
  return mayBeNumeric(word) && TIMING_WORD.test(word);
}

/** `5f`, `5f...`: there is no frame unit; the runtime reads these as plain numbers. */
export function isFrameTimingWord(word: string): boolean {
  return mayBeNumeric(word) && FRAME_TIMING_WORD.test(word);
}

/** Words such as `2*width` or `3abc` that `parseFloat` silently truncates to a number. */
export function isTruncatedNumber(word: string): boolean {
  return (
    mayBeNumeric(word) &&
    STARTS_LIKE_NUMBER.test(word) &&
    !isCleanNumber(word) &&
    !isTimingWord(word) &&
    !isFrameTimingWord(word)
  );
}

export function isIdentifier(word: string): boolean {
  return IDENTIFIER.test(word);
}

export function isEmbedCode(word: string): boolean {
  return EMBED_CODE.test(word);
}

export function isPaintingCode(word: string): boolean {
  return PAINTING_CODE.test(word);
}

export function looksLikeHexColor(word: string): boolean {
  return HEX_COLOR.test(word);
}

/** Multi-line rule: a line starting with a letter or `_` gets implicit parens. */
export function wrapsAsLine(word: string): boolean {
  return STARTS_WITH_LETTER.test(word);
}

/** Comma rule: a segment starting with a letter, `_` or `$` gets implicit parens. */
export function wrapsAsCommaSegment(word: string): boolean {
  return STARTS_WITH_LETTER_OR_DOLLAR.test(word);
}

/** `cube:0` -> `cube`, `$code:24` -> `$code`; the colon parameter does not change the name. */
export function withoutColonParameter(word: string): string {
  const colon = word.indexOf(':');
  return colon > 0 ? word.slice(0, colon) : word;
}

/** A byte 0..255, as used by RGB backdrops. */
export function isByte(word: string): boolean {
  if (!isCleanNumber(word)) return false;
  const value = Number(word);
  return value >= 0 && value <= 255;
}
