import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBlock } from '../../src/db/embedded/posting-codec.js';
import { KeyCursor } from '../../src/db/embedded/posting-keys.js';

// Property: a block's keys read one at a time (./posting-keys.ts, KeyCursor) are the keys
// written, and probing keys in ascending order stops at the first key not before each probe,
// whatever the keys' lengths (one a prefix of another, keys sharing long prefixes).
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const bytes = fc.uint8Array({ minLength: 0, maxLength: 5, max: 3 });
const sorted = (keys: Uint8Array[]) => {
  const unique = new Map(keys.map((key) => [Buffer.from(key).toString('hex'), Buffer.from(key)]));
  return [...unique.values()].sort(Buffer.compare);
};

describe(`a posting block read key by key (seed ${SEED})`, () => {
  it('gives its keys in order and finds each probe as a search of the keys would', () => {
    fc.assert(
      fc.property(
        fc.array(bytes, { maxLength: 40 }),
        fc.array(bytes, { maxLength: 30 }),
        (k, p) => {
          const keys = sorted(k);
          const cursor = new KeyCursor();
          cursor.start(encodeBlock(keys));
          const read: Buffer[] = [];
          while (cursor.next()) read.push(cursor.copy());
          expect(read).toEqual(keys);
          cursor.start(encodeBlock(keys));
          for (const probe of sorted(p)) {
            const at = keys.findIndex((key) => Buffer.compare(key, probe) >= 0);
            const expected = at < 0 ? -1 : keys[at]?.equals(probe) ? 0 : 1;
            // Inside a longer buffer, as a sort index's entry holds the `_id` key.
            const entry = Buffer.concat([Buffer.from([9, 9]), probe]);
            expect(cursor.advanceTo(entry, 2, entry.length)).toBe(expected);
            if (at >= 0) expect(cursor.copy()).toEqual(keys[at]);
          }
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });
});
