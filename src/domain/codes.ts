import { randomInt } from 'node:crypto';

/** Returns a uniformly random integer in [0, maxExclusive). */
export type Rng = (maxExclusive: number) => number;

const defaultRng: Rng = (maxExclusive) => randomInt(maxExclusive);

/** Lowercase letters and digits without look-alikes (no 0, 1, l, o): 32 characters. */
export const RANDOM_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

const CONSONANTS = 'bdfghjklmnprstvwz';
const VOWELS = 'aeiou';
/** Digits of one syllable, so they can be sung in a vowel slot (no 0 "zero", no 7 "seven"). */
const SINGABLE_DIGITS = '12345689';
/** Out of ten, how often a vowel slot holds a vowel rather than a digit. */
const VOWEL_WEIGHT = 7;

/** The longest code made from a name (nameSlug, numberedSlug). */
const MAX_NAMED_CODE_LENGTH = 32;
const ATTEMPTS_PER_LENGTH = 5;
const SHORTEST = { random: 3, pronounceable: 4 } as const;

/** Routes of this service (and common well-known paths) that a code must never shadow. */
const RESERVED_WORDS = new Set([
  'api',
  'chat',
  'api-docs',
  'graphql',
  'graphiql',
  'mcp',
  'healthz',
  'readyz',
  'livez',
  'health',
  'metrics',
  'docs',
  'openapi',
  'swagger',
  'clock',
  'static',
  'assets',
  'public',
  'media',
  'favicon',
  'robots',
  'sitemap',
  'manifest',
  'well-known',
  'index',
  'admin',
  'auth',
  'login',
  'logout',
  'oauth',
  // A member's own pages (src/pages/account-routes.ts) and the editor.
  'settings',
  'new',
  'status',
  'null',
  'undefined',
]);
/** Every reserved word, for the start-up check of codes stored before a word was reserved. */
export const reservedWords = (): string[] => [...RESERVED_WORDS];

const RESERVED_FIRST_CHARS = new Set(['$', '*', '!', '#', '~']);

/** Latin letters that Unicode normalization does not split into a base letter and a mark. */
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
  ı: 'i',
};

function pick(chars: string, rng: Rng): string {
  const char = chars[rng(chars.length)];
  if (char === undefined)
    throw new RangeError(`rng returned an index outside 0..${chars.length - 1}`);
  return char;
}

function assertLength(length: number): void {
  if (!Number.isInteger(length) || length < 1)
    throw new RangeError(`invalid code length: ${length}`);
}

export function randomCode(length: number, rng: Rng = defaultRng): string {
  assertLength(length);
  let code = '';
  for (let i = 0; i < length; i += 1) code += pick(RANDOM_CODE_ALPHABET, rng);
  return code;
}

/** Consonant at even positions; vowel (sometimes a singable digit) at odd ones: 'bako', 'ra9u'. */
export function pronounceableCode(length: number, rng: Rng = defaultRng): string {
  assertLength(length);
  let code = '';
  for (let i = 0; i < length; i += 1) {
    if (i % 2 === 0) code += pick(CONSONANTS, rng);
    else code += rng(10) < VOWEL_WEIGHT ? pick(VOWELS, rng) : pick(SINGABLE_DIGITS, rng);
  }
  return code;
}

export function isReservedCode(code: string): boolean {
  if (code === '' || RESERVED_FIRST_CHARS.has(code[0] ?? '')) return true;
  const lower = code.toLowerCase();
  // 'favicon.ico', 'robots.txt', 'api-docs.json' are reserved along with their base name.
  const base = lower.split('.')[0] ?? lower;
  return RESERVED_WORDS.has(lower) || RESERVED_WORDS.has(base);
}

/** 'Red Box!' -> 'red-box'; accents are folded ('Café' -> 'cafe'); null when nothing usable is left. */
export function nameSlug(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđłþðı]/g, (letter) => LETTER_FOLDS[letter] ?? '-')
    .replace(/['\u2018\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAMED_CODE_LENGTH)
    .replace(/-+$/, '');
  return slug === '' || isReservedCode(slug) ? null : slug;
}

/** numberedSlug('red-box', 2) -> 'red-box-2'; the base is shortened so the result stays <= 32. n = 1 gives the slug. */
export function numberedSlug(slug: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`invalid slug number: ${n}`);
  if (n === 1) return slug;
  const suffix = `-${n}`;
  const room = MAX_NAMED_CODE_LENGTH - suffix.length;
  if (room < 1) throw new RangeError(`slug number too large: ${n}`);
  const base = slug.slice(0, room).replace(/-+$/, '');
  if (base === '') throw new RangeError(`unusable slug: '${slug}'`);
  return base + suffix;
}

/**
 * Endless stream of non-reserved candidates: ATTEMPTS_PER_LENGTH at the shortest length,
 * then as many at each next length. The caller inserts each one and stops at the first
 * the database accepts (its unique index decides), bounding its own number of attempts.
 */
export function* codeCandidates(
  kind: 'random' | 'pronounceable',
  rng: Rng = defaultRng,
): Generator<string> {
  const make = kind === 'random' ? randomCode : pronounceableCode;
  for (let length = SHORTEST[kind]; ; length += 1) {
    for (let attempt = 0; attempt < ATTEMPTS_PER_LENGTH; ) {
      const code = make(length, rng);
      if (isReservedCode(code)) continue;
      attempt += 1;
      yield code;
    }
  }
}
