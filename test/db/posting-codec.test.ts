import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeValue } from '../../src/db/embedded/keys.js';
import {
  appendToBlock,
  blockCount,
  decodeBlock,
  decodeTail,
  encodeBlock,
  encodeTail,
  tailWith,
} from '../../src/db/embedded/posting-codec.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);

/** Sorted, distinct byte strings, as a posting list holds `_id` keys. */
const sortedKeys = fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 300 }).map((keys) => {
  const buffers = keys.map((key) => Buffer.from(key)).sort(Buffer.compare);
  return buffers.filter((key, i) => i === 0 || !key.equals(buffers[i - 1] as Buffer));
});

describe('posting block codec', () => {
  it('gives back every key of a block, in order', () => {
    fc.assert(
      fc.property(sortedKeys, (keys) => {
        const block = encodeBlock(keys);
        expect(decodeBlock(block)).toEqual(keys);
        expect(blockCount(block)).toBe(keys.length);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('appends keys to a block without decoding it, as encoding them all would', () => {
    fc.assert(
      fc.property(sortedKeys, fc.nat(2 ** 31 - 1), (keys, cut) => {
        const at = keys.length === 0 ? 0 : 1 + (cut % keys.length);
        const first = keys.slice(0, at);
        const block = encodeBlock(first);
        const last = first[first.length - 1] ?? Buffer.alloc(0);
        const appended = appendToBlock(block, last, keys.slice(at));
        expect(decodeBlock(appended)).toEqual(keys);
        expect(appended).toEqual(encodeBlock(keys));
        const tail = decodeTail(encodeTail({ count: cut, last, block: appended }));
        expect(tail.count).toBe(cut);
        expect(Buffer.from(tail.last)).toEqual(last);
        expect(Buffer.from(tail.block)).toEqual(appended);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('writes a tail of part of a list, or appends part of one to a tail, as encoding its block would', () => {
    fc.assert(
      fc.property(sortedKeys, fc.nat(2 ** 31 - 1), fc.nat(2 ** 31 - 1), (keys, cut, count) => {
        fc.pre(keys.length >= 2);
        const at = 1 + (cut % (keys.length - 1));
        expect(encodeBlock(keys, at, keys.length)).toEqual(encodeBlock(keys.slice(at)));
        const head = tailWith(count, keys, 0, at);
        const last = keys[at - 1] as Buffer;
        expect(head).toEqual(encodeTail({ count, last, block: encodeBlock(keys.slice(0, at)) }));
        const whole = tailWith(count + 1, keys, at, keys.length, decodeTail(head));
        const lastKey = keys[keys.length - 1] as Buffer;
        expect(whole).toEqual(
          encodeTail({ count: count + 1, last: lastKey, block: encodeBlock(keys) }),
        );
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('keeps ObjectIds made one after another in a few bytes each', () => {
    const keys = Array.from({ length: 128 }, () => encodeValue(new ObjectId()));
    const block = encodeBlock(keys);
    expect(decodeBlock(block)).toEqual(keys);
    // 13 bytes each as keys of their own; here a count, a length and the last byte or two.
    expect(block.length / keys.length).toBeLessThan(4.5);
  });

  it('refuses a block cut short or with bytes left over', () => {
    const block = encodeBlock([Buffer.from('abc'), Buffer.from('abd')]);
    expect(() => decodeBlock(block.subarray(0, block.length - 1))).toThrow(/cut short/);
    expect(() => decodeBlock(Buffer.concat([block, Buffer.from([0])]))).toThrow(/after its keys/);
    expect(() => decodeBlock(Buffer.from([0x80]))).toThrow(/inside a number/);
  });
});
