/**
 * The block codec of the trigram index's posting lists (./trigram-postings.ts): a sorted list of
 * `_id` keys (./keys.ts), each after the first written as what it shares with the one before
 * (a count of leading bytes) and the bytes that follow. `_id` keys in order share most of their
 * bytes (ObjectIds made one after another differ in their last one or two), so a posting takes
 * about three bytes where a key of its own took the whole `_id` key and LMDB's entry overhead.
 *
 * A block: varint(count), then per key varint(shared), varint(rest length), rest.
 */

/** Appends `value` (a non-negative integer below 2^31) as an unsigned LEB128 varint. */
function putVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
}

/** Reads an unsigned LEB128 varint at `at.offset`, advancing it. */
function getVarint(bytes: Uint8Array, at: { offset: number }): number {
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

/** Appends each key as what it shares with the one before (`previous` for the first) and the rest. */
function putKeys(out: number[], keys: readonly Uint8Array[], previous: Uint8Array): void {
  let before = previous;
  for (const key of keys) {
    const shared = sharedPrefix(before, key);
    putVarint(out, shared);
    putVarint(out, key.length - shared);
    for (let i = shared; i < key.length; i++) out.push(key[i] as number);
    before = key;
  }
}

/** One block of keys, in the order given (the caller keeps them sorted and distinct). */
export function encodeBlock(keys: readonly Uint8Array[]): Buffer {
  const out: number[] = [];
  putVarint(out, keys.length);
  putKeys(out, keys, new Uint8Array(0));
  return Buffer.from(out);
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
  const head: number[] = [];
  putVarint(head, count + keys.length);
  const tail: number[] = [];
  putKeys(tail, keys, last);
  return Buffer.concat([Buffer.from(head), block.subarray(at.offset), Buffer.from(tail)]);
}

/**
 * The open end of a list: its block with its last key written before it, so that appending
 * needs no decoding. varint(last length), last, block.
 */
export function encodeTail(block: Uint8Array, last: Uint8Array): Buffer {
  const head: number[] = [];
  putVarint(head, last.length);
  return Buffer.concat([Buffer.from(head), last, block]);
}

export function decodeTail(value: Uint8Array): { last: Buffer; block: Buffer } {
  const at = { offset: 0 };
  const length = getVarint(value, at);
  if (at.offset + length > value.length) throw new Error('a posting block is cut short');
  return {
    last: Buffer.from(value.subarray(at.offset, at.offset + length)),
    block: Buffer.from(value.subarray(at.offset + length)),
  };
}
