import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  codeCandidates,
  isReservedCode,
  nameSlug,
  numberedSlug,
  pronounceableCode,
  RANDOM_CODE_ALPHABET,
  type Rng,
  randomCode,
} from '../../src/domain/codes.js';

/** The pronounceable alphabets, as the shape tests above spell them. */
const CONSONANTS = 'bdfghjklmnprstvwz';
const VOWELS = 'aeiou';
const SINGABLE_DIGITS = '12345689';

/** The rng draws that make randomCode spell `word`. */
function spellRandom(word: string): number[] {
  return [...word].map((char) => {
    const index = RANDOM_CODE_ALPHABET.indexOf(char);
    if (index < 0) throw new Error(`'${char}' is not in the random alphabet`);
    return index;
  });
}

/** The rng draws that make pronounceableCode spell `word` (a vowel slot draws a 0..9 weight first: < 7 vowel, else digit). */
function spellPronounceable(word: string): number[] {
  return [...word].flatMap((char, i) => {
    if (i % 2 === 0) {
      if (!CONSONANTS.includes(char)) throw new Error(`'${char}' is not a consonant`);
      return [CONSONANTS.indexOf(char)];
    }
    if (VOWELS.includes(char)) return [0, VOWELS.indexOf(char)];
    if (!SINGABLE_DIGITS.includes(char)) throw new Error(`'${char}' is not singable`);
    return [9, SINGABLE_DIGITS.indexOf(char)];
  });
}

/** An rng that plays `script` (each draw must fit the asked range), then draws 0 for ever. */
function scriptedRng(script: number[]): Rng & { remaining(): number } {
  const queue = [...script];
  const rng = (max: number) => {
    const value = queue.shift() ?? 0;
    if (value >= max) throw new Error(`scripted draw ${value} does not fit below ${max}`);
    return value;
  };
  return Object.assign(rng, { remaining: () => queue.length });
}

function take<T>(iterator: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i += 1) {
    const next = iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe('RANDOM_CODE_ALPHABET', () => {
  it('has lowercase letters and digits without look-alikes', () => {
    for (const lookAlike of ['0', '1', 'l', 'o'])
      expect(RANDOM_CODE_ALPHABET).not.toContain(lookAlike);
    expect(RANDOM_CODE_ALPHABET).toMatch(/^[a-z2-9]+$/);
    expect(new Set(RANDOM_CODE_ALPHABET).size).toBe(RANDOM_CODE_ALPHABET.length);
    expect(RANDOM_CODE_ALPHABET).toHaveLength(32);
  });
});

describe('randomCode', () => {
  it('uses only the alphabet, at the asked length', () => {
    for (let i = 0; i < 200; i += 1) expect(randomCode(3)).toMatch(/^[a-km-np-z2-9]{3}$/);
    expect(randomCode(7)).toHaveLength(7);
  });

  it('draws from the injected rng', () => {
    expect(randomCode(3, () => 0)).toBe('aaa');
    expect(randomCode(3, (max) => max - 1)).toBe('999');
  });

  it('rejects a nonsensical length', () => {
    expect(() => randomCode(0)).toThrow(RangeError);
    expect(() => randomCode(2.5)).toThrow(RangeError);
  });
});

describe('pronounceableCode', () => {
  it('alternates consonant and vowel (or singable digit), lowercase', () => {
    for (let i = 0; i < 300; i += 1) {
      const code = pronounceableCode(6);
      expect(code).toMatch(/^(?:[bdfghjklmnprstvwz][aeiou12345689]){3}$/);
    }
  });

  it('never sings 0 or 7 and starts with a consonant at odd lengths too', () => {
    for (let i = 0; i < 300; i += 1)
      expect(pronounceableCode(5)).toMatch(
        /^[bdfghjklmnprstvwz][aeiou12345689][bdfghjklmnprstvwz][aeiou12345689][bdfghjklmnprstvwz]$/,
      );
  });

  it('produces both vowels and digits in vowel slots', () => {
    const codes = Array.from({ length: 400 }, () => pronounceableCode(4)).join('');
    expect(codes).toMatch(/[aeiou]/);
    expect(codes).toMatch(/[2-9]/);
  });
});

describe('isReservedCode', () => {
  it.each([
    'api',
    'graphql',
    'mcp',
    'healthz',
    'readyz',
    'metrics',
    'docs',
    'openapi',
    'clock',
    'static',
    'assets',
    'favicon',
    'robots',
  ])('reserves the route %s', (route) => expect(isReservedCode(route)).toBe(true));

  it.each(['$abc', '*abc', '!abc', '#abc', '~abc'])('reserves sigil-prefixed %s', (code) => {
    expect(isReservedCode(code)).toBe(true);
  });

  it('reserves case variants, file names of routes and the empty string', () => {
    expect(isReservedCode('API')).toBe(true);
    expect(isReservedCode('favicon.ico')).toBe(true);
    expect(isReservedCode('robots.txt')).toBe(true);
    expect(isReservedCode('')).toBe(true);
  });

  it('leaves ordinary codes and route look-alikes free', () => {
    for (const code of ['abc', 'bako', 'apis', 'api-2', 'clockwork', 'red-box'])
      expect(isReservedCode(code)).toBe(false);
  });
});

describe('codeCandidates', () => {
  it('starts random codes at 3 characters and grows as attempts fail', () => {
    const lengths = take(codeCandidates('random'), 16).map((code) => code.length);
    expect(lengths.slice(0, 5)).toEqual([3, 3, 3, 3, 3]);
    expect(lengths.slice(5, 10)).toEqual([4, 4, 4, 4, 4]);
    expect(lengths.slice(10, 15)).toEqual([5, 5, 5, 5, 5]);
    expect(lengths[15]).toBe(6);
  });

  it('starts pronounceable codes at 4 characters and grows as attempts fail', () => {
    const codes = take(codeCandidates('pronounceable'), 11);
    expect(codes.map((code) => code.length)).toEqual([4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6]);
    for (const code of codes)
      expect(code).toMatch(/^(?:[bdfghjklmnprstvwz][aeiou12345689])*[bdfghjklmnprstvwz]?$/);
  });

  it('keeps going for as long as the caller asks', () => {
    const codes = take(codeCandidates('random'), 60);
    expect(codes).toHaveLength(60);
    expect(codes.at(-1)?.length).toBeGreaterThan(10);
  });

  it('skips reserved words without spending an attempt', () => {
    const a = RANDOM_CODE_ALPHABET.indexOf('a');
    const p = RANDOM_CODE_ALPHABET.indexOf('p');
    const i = RANDOM_CODE_ALPHABET.indexOf('i');
    const z = RANDOM_CODE_ALPHABET.indexOf('z');
    // The rng spells 'api' first, then 'zzz' forever after.
    const script = [a, p, i];
    const rng: Rng = () => script.shift() ?? z;
    const codes = take(codeCandidates('random', rng), 5);
    expect(codes).toEqual(['zzz', 'zzz', 'zzz', 'zzz', 'zzz']);
  });

  it('skips a reserved word a random code would spell, at every length', () => {
    // 'mcp' at length 3, 'auth' at length 4, 'media' at length 5: each comes first at its length and is skipped.
    const script = [
      ...spellRandom('mcp'),
      ...Array.from({ length: 5 }, () => spellRandom('bcd')).flat(),
      ...spellRandom('auth'),
      ...Array.from({ length: 5 }, () => spellRandom('bcdf')).flat(),
      ...spellRandom('media'),
      ...Array.from({ length: 5 }, () => spellRandom('bcdfg')).flat(),
    ];
    for (const word of ['mcp', 'auth', 'media']) expect(isReservedCode(word)).toBe(true);
    const rng = scriptedRng(script);
    expect(take(codeCandidates('random', rng), 15)).toEqual([
      ...Array(5).fill('bcd'),
      ...Array(5).fill('bcdf'),
      ...Array(5).fill('bcdfg'),
    ]);
    expect(rng.remaining()).toBe(0); // every reserved word was drawn, and none was yielded
  });

  it('skips a reserved word a pronounceable code would spell (login, sitemap)', () => {
    expect(isReservedCode('login')).toBe(true);
    expect(isReservedCode('sitemap')).toBe(true);
    const script = [
      ...Array.from({ length: 5 }, () => spellPronounceable('b9ku')).flat(),
      ...spellPronounceable('login'), // the first length-5 candidate
      ...Array.from({ length: 5 }, () => spellPronounceable('rikob')).flat(),
      ...Array.from({ length: 5 }, () => spellPronounceable('zuzuzu')).flat(),
      ...spellPronounceable('sitemap'), // the first length-7 candidate
      ...spellPronounceable('bakodum'),
    ];
    const rng = scriptedRng(script);
    expect(take(codeCandidates('pronounceable', rng), 16)).toEqual([
      ...Array(5).fill('b9ku'),
      ...Array(5).fill('rikob'),
      ...Array(5).fill('zuzuzu'),
      'bakodum',
    ]);
    expect(rng.remaining()).toBe(0);
  });

  it('never yields a reserved code, whatever the rng draws (property)', () => {
    const reservedRandom = [
      'api',
      'mcp',
      'auth',
      'media',
      'admin',
      'index',
      'assets',
      'status',
      'swagger',
      'metrics',
      'manifest',
    ];
    const reservedPronounceable = ['login', 'sitemap'];
    const SHAPE = {
      random: /^[a-km-np-z2-9]+$/,
      pronounceable: /^(?:[bdfghjklmnprstvwz][aeiou12345689])*[bdfghjklmnprstvwz]?$/,
    };
    const LENGTHS = {
      random: [3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6],
      pronounceable: [4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7],
    };
    for (const kind of ['random', 'pronounceable'] as const) {
      const spell = kind === 'random' ? spellRandom : spellPronounceable;
      const reserved = kind === 'random' ? reservedRandom : reservedPronounceable;
      // Draws mix arbitrary numbers with whole reserved words, so reserved candidates really come up.
      const chunk = fc.oneof(
        fc.array(fc.nat({ max: 1_000 }), { maxLength: 8 }),
        fc.constantFrom(...reserved.map(spell)),
      );
      fc.assert(
        fc.property(fc.array(chunk, { maxLength: 40 }), (chunks) => {
          const draws = chunks.flat();
          let i = 0;
          // Arbitrary draws (wrapped into range), then 0 for ever, so the stream always moves on.
          const rng: Rng = (max) => (i < draws.length ? (draws[i++] as number) % max : 0);
          const codes = take(codeCandidates(kind, rng), LENGTHS[kind].length);
          expect(codes.map((code) => code.length)).toEqual(LENGTHS[kind]);
          for (const code of codes) {
            expect(isReservedCode(code), code).toBe(false);
            expect(code).toMatch(SHAPE[kind]);
          }
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('nameSlug', () => {
  it.each([
    ['Red Box', 'red-box'],
    ['  red   box  ', 'red-box'],
    ['Red_Box!!!', 'red-box'],
    ['--red--box--', 'red-box'],
    ["Tom's Drift", 'toms-drift'],
    ['Tom’s Drift', 'toms-drift'],
    ['Café Crème', 'cafe-creme'],
    ['Ångström über Straße', 'angstrom-uber-strasse'],
    ['Ｆｕｌｌ　Ｗｉｄｔｈ', 'full-width'],
    ['piece #42 (v2.1)', 'piece-42-v2-1'],
    ['drift 🌊 waves', 'drift-waves'],
    ['UPPER', 'upper'],
  ])('%j -> %j', (name, slug) => {
    expect(nameSlug(name)).toBe(slug);
  });

  it.each([
    '',
    '   ',
    '!!!',
    '🌊🌊',
    '日本語',
    '---',
  ])('gives null when nothing usable remains: %j', (name) => {
    expect(nameSlug(name)).toBeNull();
  });

  it('gives null for reserved routes', () => {
    expect(nameSlug('API')).toBeNull();
    expect(nameSlug(' GraphQL ')).toBeNull();
    expect(nameSlug('$clock')).toBeNull();
  });

  it('caps long names at 32 characters without a trailing dash', () => {
    const slug = nameSlug('a very long piece name that goes on and on forever');
    expect(slug).toBe('a-very-long-piece-name-that-goes');
    expect(nameSlug(`${'x'.repeat(31)} yz`)).toBe('x'.repeat(31));
    expect(nameSlug('y'.repeat(500))).toBe('y'.repeat(32));
  });

  it('always yields the allowed shape', () => {
    const names = ['a  -- b', '-x-', 'Zoë & Chloë', '  42  ', 'a/b\\c', `${'x'.repeat(40)}-y`];
    for (const name of names) expect(nameSlug(name)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });
});

describe('numberedSlug', () => {
  it('appends the number', () => {
    expect(numberedSlug('red-box', 2)).toBe('red-box-2');
    expect(numberedSlug('red-box', 13)).toBe('red-box-13');
  });

  it('gives the slug itself for n = 1', () => {
    expect(numberedSlug('red-box', 1)).toBe('red-box');
  });

  it('shortens the base, not the suffix, to stay within 32 characters', () => {
    const base = `${'abcdefghij'.repeat(3)}xy`; // 32 characters
    expect(numberedSlug(base, 2)).toBe(`${base.slice(0, 30)}-2`);
    expect(numberedSlug(base, 123)).toBe(`${base.slice(0, 28)}-123`);
    for (let n = 2; n < 2000; n += 97) expect(numberedSlug(base, n).length).toBeLessThanOrEqual(32);
  });

  it('does not leave a double dash where the base was cut', () => {
    const slug = `${'a'.repeat(29)}-bc`; // 32 characters, dash at index 29
    expect(numberedSlug(slug, 22)).toBe(`${'a'.repeat(29)}-22`);
    expect(numberedSlug(slug, 2)).toBe(`${'a'.repeat(29)}-2`);
  });

  it('rejects numbers below 1 or not whole', () => {
    expect(() => numberedSlug('x', 0)).toThrow(RangeError);
    expect(() => numberedSlug('x', 2.5)).toThrow(RangeError);
  });
});
