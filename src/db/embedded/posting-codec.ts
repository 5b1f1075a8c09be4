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

/** One block of keys, in the order given (the caller keeps them sorted and distinct). */
export function encodeBlock(keys: readonly Uint8Array[]): Buffer {
  const out: number[] = [];
  putVarint(out, keys.length);
  let previous: Uint8Array = new Uint8Array(0);
  for (const key of keys) {
    const shared = sharedPrefix(previous, key);
    putVarint(out, shared);
    putVarint(out, key.length - shared);
    for (let i = shared; i < key.length; i++) out.push(key[i] as number);
    previous = key;
  }
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
