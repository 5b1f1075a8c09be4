import { compareBytes, KeyCursor } from './posting-keys.js';
import type { TrigramPostings } from './trigram-postings.js';

/**
 * One trigram's postings (./trigram-postings.ts) probed with `_id` keys in ascending order: its
 * pending keys, then its blocks, each read key by key (./posting-keys.ts, KeyCursor) as far as
 * the probes go. The block holding a probe is found by a seek each time the probes pass the one
 * read (for a list with many more postings than probes), or from the list's block keys read one
 * after another (a walk: a block no probe falls in is never fetched). `walkAfter`: how many
 * seeks are made before walking on from the block sought last (0: walked from the list's start;
 * infinite: never walked). Probes that keep falling past the block read fall in most blocks,
 * and reading the next block key costs much less than a seek.
 */
export class ForwardProbe {
  readonly #cursor = new KeyCursor();
  /** The first key of the full block read, when it is one (not the tail). */
  #blockFirst: Buffer | undefined;
  #onTail = false;
  /** The list's tail, read when a probe first passes the pending keys (a probe never asked reads nothing). */
  #tail: ReturnType<TrigramPostings['tailBlock']> | null = null;
  #walking: boolean;
  #seeks = 0;
  /** Where the pending keys not before the last probe start. */
  #waitingAt = 0;
  /** The list's full blocks' table keys, in order (`walk`; read from the first probe past the pending keys), and the next one not yet passed. */
  #walk: Iterator<Buffer> | undefined;
  #ahead: Buffer | undefined;
  readonly #prefix: number;

  constructor(
    private readonly lists: TrigramPostings,
    private readonly trigram: string,
    private readonly waiting: readonly Buffer[],
    private readonly walkAfter: number,
  ) {
    this.#prefix = Buffer.byteLength(trigram);
    this.#walking = walkAfter === 0;
  }

  /** Whether the list holds the key in `key` from `start` to `end` (not before the last one probed). */
  has(key: Uint8Array, start: number, end: number): boolean {
    if (this.#waitingAt < this.waiting.length && this.#waits(key, start, end)) return true;
    for (;;) {
      const order = this.#cursor.advanceTo(key, start, end);
      if (order >= 0) return order === 0;
      if (!this.#nextBlock(key, start, end)) return false;
    }
  }

  /**
   * Whether the pending keys hold the key probed. Probes ascend, so the search gallops on from
   * where the last one stopped: mostly one or two comparisons.
   */
  #waits(key: Uint8Array, start: number, end: number): boolean {
    const waiting = this.waiting;
    const before = (i: number) => {
      const found = waiting[i] as Buffer;
      return compareBytes(found, 0, found.length, key, start, end) < 0;
    };
    let low = this.#waitingAt;
    let high = low;
    for (let step = 1; high < waiting.length && before(high); step *= 2) {
      low = high + 1;
      high = low + step;
    }
    // The first pending key not before the probe is from `low` to `high`.
    if (high > waiting.length) high = waiting.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(middle)) low = middle + 1;
      else high = middle;
    }
    this.#waitingAt = low;
    const found = waiting[low];
    return found !== undefined && compareBytes(found, 0, found.length, key, start, end) === 0;
  }

  /** Moves to the block that may hold the key probed, past the one read; false: none does. */
  #nextBlock(key: Uint8Array, start: number, end: number): boolean {
    if (this.#tail === null) this.#tail = this.lists.tailBlock(this.trigram);
    const tail = this.#tail;
    // Past the list's last key (or no list): no block holds it.
    if (!tail || compareBytes(key, start, end, tail.last, 0, tail.last.length) > 0) return false;
    if (this.#onTail) return false;
    if (this.#walking) {
      if (!this.#walk) {
        this.#walk = this.lists.fullBlockKeys(this.trigram);
        this.#ahead = this.#walk.next().value;
      }
      return this.#walkTo(key, start, end, tail);
    }
    const floor = this.lists.floorBlock(this.trigram, key, start, end);
    if (floor && !(this.#blockFirst && floor.first.equals(this.#blockFirst))) {
      this.#blockFirst = floor.first;
      this.#cursor.start(floor.block);
      if (++this.#seeks >= this.walkAfter) {
        // From here on the list's block keys are read on from this block's.
        this.#walking = true;
        this.#walk = this.lists.fullBlockKeys(this.trigram, floor.first);
        this.#ahead = this.#walk.next().value;
      }
      return true;
    }
    // The key falls after the block read (or before every full block): only the tail, when it
    // starts at or before the key, may hold it (a full block between would be its floor).
    if (compareBytes(tail.first, 0, tail.first.length, key, start, end) > 0) return false;
    this.#onTail = true;
    this.#blockFirst = undefined;
    this.#cursor.start(tail.block);
    return true;
  }

  /** Fetches the last block starting at or before the probe, past the one read (`walk`). */
  #walkTo(key: Uint8Array, start: number, end: number, tail: { first: Buffer; block: Uint8Array }) {
    const walk = this.#walk as Iterator<Buffer>;
    const prefix = this.#prefix;
    let floor: Buffer | undefined;
    for (
      let ahead = this.#ahead;
      ahead && compareBytes(ahead, prefix, ahead.length, key, start, end) <= 0;
      ahead = this.#ahead
    ) {
      floor = ahead;
      this.#ahead = walk.next().value;
    }
    if (
      this.#ahead === undefined &&
      compareBytes(tail.first, 0, tail.first.length, key, start, end) <= 0
    ) {
      this.#onTail = true;
      this.#cursor.start(tail.block);
      return true;
    }
    // No block starts between the one read and the probe: the probe falls after the one read.
    if (!floor) return false;
    const block = this.lists.fullBlock(floor);
    if (!block) return false;
    this.#cursor.startOnCopy(block);
    return true;
  }

  /** Ends the read of the blocks (an LMDB read left open keeps its snapshot's pages from reuse). */
  close(): void {
    this.#walk?.return?.(undefined);
    this.#walk = undefined;
    this.#ahead = undefined;
  }
}
