import { getVarint } from './posting-codec.js';

/**
 * Compares two byte ranges as Buffer.compare compares buffers. Keys in one posting list share
 * most of their bytes, so a loop here costs less than a call into Buffer.compare.
 */
export function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  const shared = aLength < bLength ? aLength : bLength;
  for (let i = 0; i < shared; i++) {
    const order = (a[aStart + i] as number) - (b[bStart + i] as number);
    if (order !== 0) return order;
  }
  return aLength - bLength;
}

/**
 * A posting block's `_id` keys decoded for reading (./posting-codec.ts): all in one buffer, key
 * `i` from `starts[i]` to `starts[i + 1]`, so reading a block makes no Buffer per key and
 * looking a key up is a binary search of byte comparisons.
 */
export class BlockKeys {
  private constructor(
    readonly bytes: Buffer,
    readonly starts: Int32Array,
  ) {}

  /** Decodes a block (varint count, then per key: shared prefix, rest length, rest). */
  static decode(block: Uint8Array): BlockKeys {
    const at = { offset: 0 };
    const count = getVarint(block, at);
    const starts = new Int32Array(count + 1);
    let bytes = Buffer.allocUnsafe(Math.max(16, count * 16));
    let length = 0;
    let previous = 0;
    for (let n = 0; n < count; n++) {
      const shared = getVarint(block, at);
      const rest = getVarint(block, at);
      if (shared > length - previous || at.offset + rest > block.length)
        throw new Error('a posting block is cut short');
      if (length + shared + rest > bytes.length) {
        const grown = Buffer.allocUnsafe(2 * (length + shared + rest));
        bytes.copy(grown, 0, 0, length);
        bytes = grown;
      }
      starts[n] = length;
      for (let i = 0; i < shared; i++) bytes[length + i] = bytes[previous + i] as number;
      for (let i = 0; i < rest; i++) bytes[length + shared + i] = block[at.offset + i] as number;
      at.offset += rest;
      previous = length;
      length += shared + rest;
    }
    starts[count] = length;
    if (at.offset !== block.length) throw new Error('a posting block has bytes after its keys');
    return new BlockKeys(bytes, starts);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** Key `i`, as a Buffer of its own. */
  key(i: number): Buffer {
    return Buffer.from(this.bytes.subarray(this.starts[i], this.starts[i + 1]));
  }

  /** Key `i` against the key in `key` from `start` to `end`. */
  compare(i: number, key: Uint8Array, start = 0, end = key.length): number {
    return compareBytes(
      this.bytes,
      this.starts[i] as number,
      this.starts[i + 1] as number,
      key,
      start,
      end,
    );
  }

  /** Where the last lookup ended: keys looked up one after another fall near each other. */
  #near = 0;

  /** Whether the block holds the key in `key` from `start` to `end`. */
  has(key: Uint8Array, start = 0, end = key.length): boolean {
    let low = 0;
    let high = this.length - 1;
    // First between the last key found (or passed) and its neighbour.
    const near = this.#near;
    if (near <= high) {
      const order = this.compare(near, key, start, end);
      if (order === 0) return true;
      if (order < 0) {
        if (near === high || this.compare(near + 1, key, start, end) > 0) return false;
        low = near + 1;
      } else {
        if (near === 0 || this.compare(near - 1, key, start, end) < 0) return false;
        high = near - 1;
      }
    }
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(middle, key, start, end);
      this.#near = middle;
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

/** Whether a sorted list of keys holds the key in `key` from `start` to `end`. */
export function holdsKey(
  keys: readonly Buffer[],
  key: Uint8Array,
  start: number,
  end: number,
): boolean {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = keys[middle] as Buffer;
    const order = compareBytes(found, 0, found.length, key, start, end);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * A posting block's `_id` keys read in order, one at a time, into one buffer: each key
 * overwrites the one before from where they differ, so reading a key costs the few bytes it
 * does not share with the one before. BlockKeys copies every key whole for lookups in any
 * order (a quarter of the bytes per key here): this is for keys read or probed in `_id` order.
 * The key read last: `key` from 0 to `length`.
 */
export class KeyCursor {
  key = Buffer.allocUnsafe(64);
  length = 0;
  #block: Uint8Array = Buffer.alloc(0);
  #offset = 0;
  #left = 0;
  /** How many leading bytes the key read last shares with the one before. */
  #shared = 0;
  /** A key was read (not past the block's end). */
  #onKey = false;

  /** Starts on a block: the next `next()` reads its first key. */
  start(block: Uint8Array): void {
    this.#block = block;
    this.#offset = 0;
    this.#left = this.#varint();
    this.length = 0;
    this.#onKey = false;
  }

  /** A buffer reused for the blocks this cursor copies (`startOnCopy`). */
  #copied = Buffer.allocUnsafe(0);

  /**
   * Starts on a copy of a block that is valid only until the next read of its table (LMDB's
   * getBinaryFast), made into a buffer this cursor reuses: no allocation per block.
   */
  startOnCopy(block: Uint8Array): void {
    const length = block.length;
    if (length > this.#copied.length) this.#copied = Buffer.allocUnsafe(Math.max(2 * length, 1024));
    // LMDB's shared buffer is longer than its `length` says: only that much is copied.
    this.#copied.set(block.subarray(0, length));
    this.start(this.#copied.subarray(0, length));
  }

  /** Reads the next key; false past the block's last one. */
  next(): boolean {
    const block = this.#block;
    if (this.#left === 0) {
      if (this.#offset !== block.length)
        throw new Error('a posting block has bytes after its keys');
      this.#onKey = false;
      return false;
    }
    this.#left--;
    const shared = this.#varint();
    const rest = this.#varint();
    const from = this.#offset;
    if (shared > this.length || from + rest > block.length)
      throw new Error('a posting block is cut short');
    const length = shared + rest;
    if (length > this.key.length) {
      const grown = Buffer.allocUnsafe(2 * length);
      this.key.copy(grown, 0, 0, shared);
      this.key = grown;
    }
    const key = this.key;
    for (let i = 0; i < rest; i++) key[shared + i] = block[from + i] as number;
    this.#offset = from + rest;
    this.length = length;
    this.#shared = shared;
    this.#onKey = true;
    return true;
  }

  /**
   * Reads on (from the key read last, if any) to the first key not before the key in `key`
   * from `start` to `end`: 0 when it is that key, 1 when it comes after, -1 when the block ends
   * first. Keys in order mostly decide against the probe from what they share with the one
   * before, without comparing bytes.
   */
  advanceTo(key: Uint8Array, start: number, end: number): number {
    const probeLength = end - start;
    // How many leading bytes the key read last shares with the probe (it is before the probe).
    let same = -1;
    for (let read = this.#onKey || this.next(); ; read = this.next()) {
      if (!read) return -1;
      if (same >= 0) {
        const shared = this.#shared;
        // It differs from the key before where that one still matched the probe: it is after.
        if (shared < same) return 1;
        // It matches the key before past where that one fell below the probe: below too.
        if (shared > same) continue;
      }
      const own = this.key;
      const length = this.length;
      const most = length < probeLength ? length : probeLength;
      let i = same > 0 ? same : 0;
      while (i < most && own[i] === key[start + i]) i++;
      if (i < most) {
        if ((own[i] as number) > (key[start + i] as number)) return 1;
      } else if (length >= probeLength) return length === probeLength ? 0 : 1;
      same = i;
    }
  }

  /** The key read last against the key in `key` from `start` to `end`. */
  compare(key: Uint8Array, start = 0, end = key.length): number {
    return compareBytes(this.key, 0, this.length, key, start, end);
  }

  /** The key read last, as a Buffer of its own. */
  copy(): Buffer {
    return Buffer.from(this.key.subarray(0, this.length));
  }

  /** Most numbers of a block are below 128: one byte, read here without a call. */
  #varint(): number {
    const byte = this.#block[this.#offset];
    if (byte !== undefined && byte < 0x80) {
      this.#offset++;
      return byte;
    }
    const at = { offset: this.#offset };
    const value = getVarint(this.#block, at);
    this.#offset = at.offset;
    return value;
  }
}
