import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textTrigramBytes, textTrigrams } from '../../src/db/embedded/trigrams.js';

// A document's trigrams as the fold reads them (one run of bytes) are the trigrams a search
// looks for (a set of strings): the same ones, each once, whatever the text.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);

/** The trigrams in a run of bytes, three code points each. */
function split(bytes: Buffer): string[] {
  const chars = Array.from(bytes.toString('utf8'));
  const trigrams: string[] = [];
  for (let i = 0; i + 2 < chars.length; i += 3) trigrams.push(chars.slice(i, i + 3).join(''));
  return trigrams;
}

const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'aAbB zZ0\u0000~') }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
);

describe('a document’s trigrams as bytes', () => {
  it('are its trigrams, each once, for ASCII and any other text, in arrays too', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.integer())), (values) => {
        const bytes = split(textTrigramBytes(values));
        expect(bytes).toEqual([...new Set(bytes)]);
        expect(new Set(bytes)).toEqual(textTrigrams(values));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('fold ASCII case as a search does', () => {
    expect(split(textTrigramBytes(['Hello HELLO']))).toEqual([
      'hel',
      'ell',
      'llo',
      'lo ',
      'o h',
      ' he',
    ]);
  });
});
