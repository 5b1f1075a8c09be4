import { varintAt } from '../../varint.js';

/**
 * The block codec of the trigram index's posting lists (./trigram-postings.ts): a sorted list of
 * `_id` keys (./keys.ts), each after the first written as what it shares with the one before
 * (a count of leading bytes) and the bytes that follow. `_id` keys in order share most of their
 * bytes (ObjectIds made one after another differ in their last one or two), so a posting takes
 * about three bytes where a key of its own took the whole `_id` key and LMDB's entry overhead.
 *
 * A block: varint(count), then per key varint(shared), varint(rest length), rest.
 */

/**
 * Where blocks are written before being copied out at their size (one allocation each, from
 * Node's pool: a block is a few hundred bytes). Grown when a block needs more.
 */
let scratch = Buffer.allocUnsafe(1 << 16);

/** The scratch space, at least `size` bytes of it. */
function room(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(2 * size);
  return scratch;
}

/** The most bytes keys `start` to `end` take written after one another (below: each at most 10 besides its bytes). */
function boundOf(keys: readonly Uint8Array[], start: number, end: number): number {
  let size = 0;
  for (let k = start; k < end; k++) size += (keys[k] as Uint8Array).length + 10;
  return size;
}

/** Copies `source` (from `from`) to `at`; returns where it ends. Most often a byte or two. */
function bytesAt(out: Uint8Array, at: number, source: Uint8Array, from = 0): number {
  let end = at;
  for (let i = from; i < source.length; i++) out[end++] = source[i] as number;
  return end;
}

/** Reads an unsigned LEB128 varint at `at.offset`, advancing it. */
export function getVarint(bytes: Uint8Array, at: { offset: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at.offset >= bytes.length) throw new Error('a posting block ends inside a number');
    const byte = bytes[at.offset++] as number;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) return value >>> 0;
    shift += 7;
    if (shift > 28) throw new Error('a posting block holds a number too large');
  }
}

/**
 * Writes keys `start` to `end` at `at`, each as what it shares with the one before
 * (`previous` for the first) and the rest; returns where they end.
 */
function keysAt(
  out: Uint8Array,
  at: number,
  keys: readonly Uint8Array[],
  start: number,
  end: number,
  previous: Uint8Array,
): number {
  let offset = at;
  let before = previous;
  for (let k = start; k < end; k++) {
    const key = keys[k] as Uint8Array;
    const most = Math.min(before.length, key.length);
    let shared = 0;
    while (shared < most && before[shared] === key[shared]) shared++;
    const rest = key.length - shared;
    // Keys below 128 bytes (all `_id` keys but long strings'): each count is one byte.
    if (shared < 0x80 && rest < 0x80) {
      out[offset++] = shared;
      out[offset++] = rest;
    } else offset = varintAt(out, varintAt(out, offset, shared), rest);
    for (let i = shared; i < key.length; i++) out[offset++] = key[i] as number;
    before = key;
  }
  return offset;
}

const NONE = new Uint8Array(0);

/** One block of keys `start` to `end` (all when not given), in order (the caller keeps them sorted and distinct). */
export function encodeBlock(keys: readonly Uint8Array[], start = 0, end = keys.length): Buffer {
  const out = room(5 + boundOf(keys, start, end));
  const length = keysAt(out, varintAt(out, 0, end - start), keys, start, end, NONE);
  return Buffer.from(out.subarray(0, length));
}

/** The keys of a block, each a Buffer of its own (the block's memory may be reused by LMDB). */
export function decodeBlock(block: Uint8Array): Buffer[] {
  const at = { offset: 0 };
  const count = getVarint(block, at);
  const keys: Buffer[] = [];
  let previous = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    const shared = getVarint(block, at);
    const rest = getVarint(block, at);
    if (shared > previous.length || at.offset + rest > block.length)
      throw new Error('a posting block is cut short');
    const key = Buffer.allocUnsafe(shared + rest);
    for (let i = 0; i < shared; i++) key[i] = previous[i] as number;
    for (let i = 0; i < rest; i++) key[shared + i] = block[at.offset + i] as number;
    at.offset += rest;
    keys.push(key);
    previous = key;
  }
  if (at.offset !== block.length) throw new Error('a posting block has bytes after its keys');
  return keys;
}

/** A block's first key alone (undefined when it is empty). */
export function firstKeyOf(block: Uint8Array): Buffer | undefined {
  const at = { offset: 0 };
  if (getVarint(block, at) === 0) return undefined;
  getVarint(block, at);
  const length = getVarint(block, at);
  if (at.offset + length > block.length) throw new Error('a posting block is cut short');
  return Buffer.from(block.subarray(at.offset, at.offset + length));
}

/** How many keys a block holds, read from its start alone. */
export function blockCount(block: Uint8Array): number {
  return getVarint(block, { offset: 0 });
}

/**
 * The block with keys `start` to `end` of `keys` (all when not given) added at its end, without
 * decoding it: `last` is its last key (each of `keys` comes after it, in order).
 */
export function appendToBlock(
  block: Uint8Array,
  last: Uint8Array,
  keys: readonly Uint8Array[],
  start = 0,
  end = keys.length,
): Buffer {
  const out = room(5 + block.length + boundOf(keys, start, end));
  const length = appendAt(out, 0, block, last, keys, start, end);
  return Buffer.from(out.subarray(0, length));
}

/** Writes the block with keys `start` to `end` appended at `at`; returns where it ends. */
function appendAt(
  out: Uint8Array,
  at: number,
  block: Uint8Array,
  last: Uint8Array,
  keys: readonly Uint8Array[],
  start: number,
  end: number,
): number {
  const after = { offset: 0 };
  const count = getVarint(block, after);
  const offset = bytesAt(out, varintAt(out, at, count + end - start), block, after.offset);
  return keysAt(out, offset, keys, start, end, last);
}

/** The open end of a list (./trigram-postings.ts): its last block, the list's count, its last key. */
export interface Tail {
  count: number;
  last: Uint8Array;
  block: Uint8Array;
}

/** Writes a tail's count and last key's length; returns where the last key goes. */
const lastAt = (out: Uint8Array, count: number, last: Uint8Array) =>
  varintAt(out, varintAt(out, 0, count), last.length);

/**
 * A tail as stored: varint(count), varint(last key's length), the last key, the block. With
 * its last key at hand, keys are appended without decoding the block.
 */
export function encodeTail({ count, last, block }: Tail): Buffer {
  const out = room(10 + last.length + block.length);
  const length = bytesAt(out, bytesAt(out, lastAt(out, count, last), last), block);
  return Buffer.from(out.subarray(0, length));
}

/**
 * A tail of keys `start` to `end` (at least one), the list holding `count`: their block, or
 * `onto`'s with them appended (each after its last key). As encodeTail of encodeBlock (or of
 * appendToBlock), in one pass.
 */
export function tailWith(
  count: number,
  keys: readonly Uint8Array[],
  start: number,
  end: number,
  onto?: Tail,
): Buffer {
  const last = keys[end - 1] as Uint8Array;
  const out = room(15 + last.length + (onto?.block.length ?? 0) + boundOf(keys, start, end));
  const at = bytesAt(out, lastAt(out, count, last), last);
  const length = onto
    ? appendAt(out, at, onto.block, onto.last, keys, start, end)
    : keysAt(out, varintAt(out, at, end - start), keys, start, end, NONE);
  return Buffer.from(out.subarray(0, length));
}

/** A stored tail; its parts are views of `value`. */
export function decodeTail(value: Uint8Array): Tail {
  const at = { offset: 0 };
  const count = getVarint(value, at);
  const length = getVarint(value, at);
  if (at.offset + length > value.length) throw new Error('a posting block is cut short');
  return {
    count,
    last: value.subarray(at.offset, at.offset + length),
    block: value.subarray(at.offset + length),
  };
}
