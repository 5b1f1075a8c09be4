/**
 * The block codec of the trigram index's posting lists (./trigram-postings.ts): a sorted list of
 * `_id` keys (./keys.ts), each after the first written as what it shares with the one before
 * (a count of leading bytes) and the bytes that follow. `_id` keys in order share most of their
 * bytes (ObjectIds made one after another differ in their last one or two), so a posting takes
 * about three bytes where a key of its own took the whole `_id` key and LMDB's entry overhead.
 *
 * A block: varint(count), then per key varint(shared), varint(rest length), rest.
 */

/** Bytes written one after another into a buffer that grows as needed. */
class Writer {
  bytes: Buffer;
  length = 0;
  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(size, 16));
  }
  #room(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(2 * (this.length + more));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
  /** `value` (a non-negative integer below 2^31) as an unsigned LEB128 varint. */
  varint(value: number): void {
    this.#room(5);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }
  put(source: Uint8Array, from = 0): void {
    this.#room(source.length - from);
    const { bytes } = this;
    // Most often a byte or two (what follows a shared prefix): copied one by one.
    for (let i = from; i < source.length; i++) bytes[this.length++] = source[i] as number;
  }
  done(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
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

/** How many leading bytes two keys share. */
function sharedPrefix(a: Uint8Array, b: Uint8Array): number {
  const most = Math.min(a.length, b.length);
  let i = 0;
  while (i < most && a[i] === b[i]) i++;
  return i;
}

/** Writes each key as what it shares with the one before (`previous` for the first) and the rest. */
function putKeys(out: Writer, keys: readonly Uint8Array[], previous: Uint8Array): void {
  let before = previous;
  for (const key of keys) {
    const shared = sharedPrefix(before, key);
    out.varint(shared);
    out.varint(key.length - shared);
    out.put(key, shared);
    before = key;
  }
}

/** Room for a block of these keys, most often enough. */
const roomFor = (keys: readonly Uint8Array[]) => 8 + 4 * keys.length;

/** One block of keys, in the order given (the caller keeps them sorted and distinct). */
export function encodeBlock(keys: readonly Uint8Array[]): Buffer {
  const out = new Writer(roomFor(keys) + (keys[0]?.length ?? 0));
  out.varint(keys.length);
  putKeys(out, keys, new Uint8Array(0));
  return out.done();
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
    previous.copy(key, 0, 0, shared);
    key.set(block.subarray(at.offset, at.offset + rest), shared);
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
 * The block with `keys` added at its end, without decoding it: `last` is its last key (each
 * of `keys` comes after it, in order).
 */
export function appendToBlock(
  block: Uint8Array,
  last: Uint8Array,
  keys: readonly Uint8Array[],
): Buffer {
  const at = { offset: 0 };
  const count = getVarint(block, at);
  const out = new Writer(block.length + roomFor(keys));
  out.varint(count + keys.length);
  out.put(block, at.offset);
  putKeys(out, keys, last);
  return out.done();
}

/** The open end of a list (./trigram-postings.ts): its last block, the list's count, its last key. */
export interface Tail {
  count: number;
  last: Uint8Array;
  block: Uint8Array;
}

/**
 * A tail as stored: varint(count), varint(last key's length), the last key, the block. With
 * its last key at hand, keys are appended without decoding the block.
 */
export function encodeTail({ count, last, block }: Tail): Buffer {
  const out = new Writer(10 + last.length + block.length);
  out.varint(count);
  out.varint(last.length);
  out.put(last);
  out.put(block);
  return out.done();
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
