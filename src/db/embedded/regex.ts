import { setFlagsFromString } from 'node:v8';
import { CommandError } from './errors.js';

// V8 falls back to its linear-time engine when a regex backtracks too much, so no pattern can
// run without bound. That engine has no case-insensitive mode and no backreferences or
// lookarounds: `i` is rewritten into character classes below, and the others are refused.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const invalid = (message: string) =>
  new CommandError(51091, 'Location51091', `Regular expression is invalid: ${message}`);

const unsupported = (what: string) =>
  new CommandError(
    2,
    'BadValue',
    `${what} in a regular expression is not supported by the embedded MongoDB server, which matches in linear time`,
  );

const bothCases = (char: string): string => {
  const lower = char.toLowerCase();
  const upper = char.toUpperCase();
  return lower !== upper && lower.length === 1 && upper.length === 1 ? lower + upper : char;
};

const isLetter = (char: string) => bothCases(char) !== char;

/** Copies an escape starting at `at` (the backslash); returns its end. Refuses backreferences. */
function escapeEnd(pattern: string, at: number): number {
  const next = pattern[at + 1] ?? '';
  if (/[1-9]/.test(next) || (next === 'k' && pattern[at + 2] === '<'))
    throw unsupported('A backreference');
  if (next === 'x') return at + 4;
  if (next === 'u') return pattern[at + 2] === '{' ? pattern.indexOf('}', at) + 1 : at + 6;
  if (next === 'c') return at + 3;
  if ((next === 'p' || next === 'P') && pattern[at + 2] === '{')
    return pattern.indexOf('}', at) + 1;
  return at + 2;
}

/** A character class with both cases of each letter and letter range. */
function foldClass(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; ) {
    if (body[i] === '\\') {
      const end = escapeEnd(body, i);
      out += body.slice(i, end);
      i = end;
      continue;
    }
    const char = body[i] as string;
    const to = body[i + 2];
    if (body[i + 1] === '-' && to !== undefined && to !== '\\' && isLetter(char) && isLetter(to)) {
      out += `${char}-${to}`;
      const [lo, hi] = [char, to].map((c) =>
        c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
      );
      if (lo && hi && lo.length === 1 && hi.length === 1 && lo <= hi) out += `${lo}-${hi}`;
      i += 3;
      continue;
    }
    out += bothCases(char);
    i++;
  }
  return out;
}

/** The pattern without the need for the `i` flag: each letter as a class of both its cases. */
export function foldCase(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i] as string;
    if (char === '\\') {
      const end = escapeEnd(pattern, i);
      out += pattern.slice(i, end);
      i = end;
    } else if (char === '[') {
      let end = i + 1;
      if (pattern[end] === '^') end++;
      if (pattern[end] === ']') end++;
      while (end < pattern.length && pattern[end] !== ']') end += pattern[end] === '\\' ? 2 : 1;
      const negated = pattern[i + 1] === '^';
      out += `[${negated ? '^' : ''}${foldClass(pattern.slice(i + (negated ? 2 : 1), end))}]`;
      i = end + 1;
    } else if (
      char === '(' &&
      pattern[i + 1] === '?' &&
      pattern[i + 2] === '<' &&
      /[A-Za-z_$]/.test(pattern[i + 3] ?? '')
    ) {
      const end = pattern.indexOf('>', i) + 1;
      out += pattern.slice(i, end);
      i = end;
    } else {
      const folded = bothCases(char);
      out += folded === char ? char : `[${folded}]`;
      i++;
    }
  }
  return out;
}

/** Refuses what only a backtracking engine can run: lookarounds and backreferences. */
function checkLinear(pattern: string): void {
  if (/\(\?<?[=!]/.test(pattern)) throw unsupported('A lookahead or lookbehind');
  for (let i = 0; i < pattern.length; i++) if (pattern[i] === '\\') i = escapeEnd(pattern, i) - 1;
}

/** MongoDB regex options map onto JS flags; `x` (extended) has no JS equivalent. */
export function toRegExp(pattern: string, options: string): RegExp {
  let flags = '';
  let ignoreCase = false;
  for (const option of options) {
    if (option === 'i') ignoreCase = true;
    else if (option === 'm' || option === 's') flags += option;
    else if (option !== 'u')
      throw new CommandError(51108, 'Location51108', `invalid flag in regex options: ${option}`);
  }
  checkLinear(pattern);
  try {
    new RegExp(pattern, flags);
    return new RegExp(ignoreCase ? foldCase(pattern) : pattern, flags);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}
