export type TokenKind = 'open' | 'close' | 'comma' | 'string' | 'word';

export interface Position {
  line: number;
  column: number;
}

export interface Token extends Position {
  kind: TokenKind;
  text: string;
  /** Only on strings: the closing quote is missing (strings end at the end of their line). */
  unterminated?: boolean;
}

export interface Tokenized {
  tokens: Token[];
  comments: number;
  /** Number of lines as an editor shows them (line breaks + 1). */
  lines: number;
}

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const BACKSLASH = 92;

/** The characters JavaScript's `\s` matches; the reference tokenizer splits on them. */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isLineBreak(code: number): boolean {
  return code === LINE_FEED || code === CARRIAGE_RETURN;
}

function endsBareWord(code: number): boolean {
  // ( ) " ' ; ,
  return (
    code === 40 ||
    code === 41 ||
    code === 34 ||
    code === 39 ||
    code === 59 ||
    code === 44 ||
    isWhitespace(code)
  );
}

/** Splits KidLisp source into tokens with 1-based line and column (columns count UTF-16 units). */
export function tokenize(source: string): Tokenized {
  const tokens: Token[] = [];
  let comments = 0;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const length = source.length;

  while (i < length) {
    const code = source.charCodeAt(i);
    if (isLineBreak(code)) {
      if (code === CARRIAGE_RETURN && source.charCodeAt(i + 1) === LINE_FEED) i++;
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (isWhitespace(code)) {
      i++;
      continue;
    }
    const column = i - lineStart + 1;
    if (code === 59 /* ; */) {
      comments++;
      while (i < length && !isLineBreak(source.charCodeAt(i))) i++;
      continue;
    }
    if (code === 40 || code === 41 || code === 44) {
      const kind = code === 40 ? 'open' : code === 41 ? 'close' : 'comma';
      tokens.push({ kind, text: source[i] ?? '', line, column });
      i++;
      continue;
    }
    if (code === 34 || code === 39) {
      const start = i;
      i++;
      let closed = false;
      while (i < length) {
        const c = source.charCodeAt(i);
        if (isLineBreak(c)) break;
        if (c === BACKSLASH) {
          const next = source.charCodeAt(i + 1);
          i += i + 1 < length && !isLineBreak(next) ? 2 : 1;
          continue;
        }
        i++;
        if (c === code) {
          closed = true;
          break;
        }
      }
      const token: Token = { kind: 'string', text: source.slice(start, i), line, column };
      if (!closed) token.unterminated = true;
      tokens.push(token);
      continue;
    }
    const start = i;
    while (i < length && !endsBareWord(source.charCodeAt(i))) i++;
    tokens.push({ kind: 'word', text: source.slice(start, i), line, column });
  }

  return { tokens, comments, lines: line };
}

/** The line and column of a UTF-16 offset, counted the same way as token positions. */
export function positionAt(source: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    const code = source.charCodeAt(i);
    if (code === CARRIAGE_RETURN && source.charCodeAt(i + 1) === LINE_FEED) continue;
    if (isLineBreak(code)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

export function countLines(source: string): number {
  let lines = 1;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === CARRIAGE_RETURN && source.charCodeAt(i + 1) === LINE_FEED) continue;
    if (isLineBreak(code)) lines++;
  }
  return lines;
}
