import { randomBytes } from 'node:crypto';
import { decodeBlock, encodeBlock } from './posting-codec.js';
import type { Table } from './tables.js';
import { trigramKey } from './trigrams.js';

/**
 * A trigram index's table (./indexes.ts), as posting lists: for each trigram, the `_id` keys of
 * the documents holding it, in `_id` order, in blocks of up to `block` keys (./posting-codec.ts).
 * Keys of the table (a trigram's UTF-8 never starts with 0xF5 or above, so the kinds never meet):
 *
 * - trigram + the block's first `_id` key: a block (POSTING_SIZES). A change rewrites one block, not the list.
 * - COUNT + trigram: how many postings its blocks hold (4 bytes), for the planner's estimates.
 * - PENDING + `_id` key: the trigrams of that document not yet in its blocks (UTF-8, three
 *   code points each). A write adds one entry here, not one per trigram; once `pendingDocs`
 *   documents wait, the write folds them all into the blocks (each block touched once).
 * - STAMP: changes with every change to the pending list (random bytes and the number of
 *   pending documents), so a reader knows when its copy of that list is out of date.
 */
/** How many keys a block holds at most, and how many documents wait before a merge. */
export interface PostingSizes {
  block: number;
  pendingDocs: number;
}
export const POSTING_SIZES: PostingSizes = { block: 128, pendingDocs: 1024 };
const COUNT = 0xfd;
const STAMP = Buffer.from([0xfe]);
const PENDING = 0xff;
/** After every trigram and `_id` key (an `_id` key starts with a type tag below 0xff: ./keys.ts). */
const AFTER = Buffer.from([0xff]);

const tagged = (tag: number, rest: Buffer) => Buffer.concat([Buffer.from([tag]), rest]);
const countKey = (trigram: string) => tagged(COUNT, trigramKey(trigram));
const pendingKey = (idKey: Buffer) => tagged(PENDING, idKey);
const blockKey = (trigram: string, first: Buffer) => Buffer.concat([trigramKey(trigram), first]);
const latin1 = (idKey: Buffer) => idKey.toString('latin1');

/** The trigrams written one after another (three code points each). */
function splitTrigrams(bytes: Buffer): string[] {
  const chars = Array.from(bytes.toString('utf8'));
  const trigrams: string[] = [];
  for (let i = 0; i + 2 < chars.length; i += 3) trigrams.push(chars.slice(i, i + 3).join(''));
  return trigrams;
}

/** Sorted, each key once. */
function sortedUnique(keys: Buffer[]): Buffer[] {
  keys.sort(Buffer.compare);
  return keys.filter((key, i) => i === 0 || !key.equals(keys[i - 1] as Buffer));
}

/** Two sorted lists as one, each key once. */
function union(a: Buffer[], b: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const order =
      i >= a.length ? 1 : j >= b.length ? -1 : Buffer.compare(a[i] as Buffer, b[j] as Buffer);
    if (order <= 0) out.push(a[i++] as Buffer);
    else out.push(b[j++] as Buffer);
    if (order === 0) j++;
  }
  return out;
}

/** Where `key` is in a sorted list, or -1. */
export function indexOfKey(keys: readonly Buffer[], key: Buffer): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare(keys[middle] as Buffer, key);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** A block as read: its table key and its `_id` keys. */
export interface Block {
  key: Buffer;
  ids: Buffer[];
}

/** The pending list as a reader sees it, by trigram (sorted) and by document. */
export interface PendingView {
  stamp: string;
  byTrigram: Map<string, Buffer[]>;
  byDoc: Map<string, Set<string>>;
}

export class TrigramPostings {
  #view: PendingView | undefined;

  constructor(
    readonly table: Table,
    private readonly sizes = POSTING_SIZES,
  ) {}

  // Reads.

  /** The pending list, read again only when it changed since the last read. */
  pending(): PendingView {
    const stamp = this.table.getBinary(STAMP)?.toString('latin1') ?? '';
    if (this.#view?.stamp === stamp) return this.#view;
    const view: PendingView = { stamp, byTrigram: new Map(), byDoc: new Map() };
    if (stamp !== '')
      for (const { key, value } of this.table.getRange({ start: Buffer.from([PENDING]) })) {
        const idKey = Buffer.from((key as Buffer).subarray(1));
        const trigrams = splitTrigrams(value as Buffer);
        view.byDoc.set(latin1(idKey), new Set(trigrams));
        for (const trigram of trigrams) {
          const ids = view.byTrigram.get(trigram) ?? [];
          ids.push(idKey);
          view.byTrigram.set(trigram, ids);
        }
      }
    for (const ids of view.byTrigram.values()) ids.sort(Buffer.compare);
    this.#view = view;
    return view;
  }

  /** How many documents hold a trigram (blocks and pending list). */
  count(trigram: string): number {
    return this.#storedCount(trigram) + (this.pending().byTrigram.get(trigram)?.length ?? 0);
  }

  /** The block that holds `idKey`'s place in a trigram's list: the last one starting at or before it. */
  floorBlock(trigram: string, idKey: Buffer): Block | undefined {
    const prefix = trigramKey(trigram);
    const start = Buffer.concat([prefix, idKey]);
    for (const { key, value } of this.table.getRange({ start, reverse: true, limit: 1 })) {
      const found = key as Buffer;
      if (found.length <= prefix.length || !found.subarray(0, prefix.length).equals(prefix))
        return undefined;
      return { key: Buffer.from(found), ids: decodeBlock(value as Buffer) };
    }
    return undefined;
  }

  /** The `_id` keys holding a trigram, in `_id` order or its reverse, each once. */
  *ids(trigram: string, reverse: boolean): Generator<Buffer> {
    const pending = this.pending().byTrigram.get(trigram) ?? [];
    const stored = this.#stored(trigram, reverse);
    const sign = reverse ? -1 : 1;
    let p = reverse ? pending.length - 1 : 0;
    const step = reverse ? -1 : 1;
    let next = stored.next();
    for (;;) {
      const fromPending = pending[p];
      if (next.done && !fromPending) return;
      const order = next.done
        ? 1
        : fromPending
          ? Buffer.compare(next.value, fromPending) * sign
          : -1;
      if (order <= 0) {
        yield next.value as Buffer;
        next = stored.next();
        if (order === 0) p += step;
      } else {
        yield fromPending as Buffer;
        p += step;
      }
    }
  }

  *#stored(trigram: string, reverse: boolean): Generator<Buffer> {
    const start = trigramKey(trigram);
    const end = Buffer.concat([start, AFTER]);
    const range = reverse ? { start: end, end: start, reverse } : { start, end };
    for (const { value } of this.table.getRange(range)) {
      const ids = decodeBlock(value as Buffer);
      if (reverse) ids.reverse();
      yield* ids;
    }
  }

  #storedCount(trigram: string): number {
    return this.table.getBinary(countKey(trigram))?.readUInt32BE(0) ?? 0;
  }

  // Writes (inside the store's write transaction).

  /**
   * One document's trigrams change from `before` to `after`: the ones it loses leave their
   * blocks now; the ones it gains wait in the pending list.
   */
  write(before: readonly string[], after: readonly string[], idKey: Buffer): void {
    const key = pendingKey(idKey);
    const waiting = new Set(splitTrigrams(this.table.getBinary(key) ?? Buffer.alloc(0)));
    const inBlocks = new Set(before.filter((trigram) => !waiting.has(trigram)));
    const kept = new Set(after);
    for (const trigram of inBlocks) if (!kept.has(trigram)) this.#removeFromBlocks(trigram, idKey);
    const gained = after.filter((trigram) => !inBlocks.has(trigram));
    let pendingDocs = this.#pendingDocs();
    if (gained.length > 0) {
      this.table.putSync(key, Buffer.from(gained.join(''), 'utf8'));
      if (waiting.size === 0) pendingDocs++;
    } else if (waiting.size > 0) {
      this.table.removeSync(key);
      pendingDocs--;
    } else return;
    if (pendingDocs >= this.sizes.pendingDocs) this.merge();
    else this.#stamp(pendingDocs);
  }

  /**
   * Adds the postings of these documents straight into the blocks (an index build's batch).
   * Adding what is already there changes nothing; a document waiting in the pending list is
   * left to it.
   */
  addDocuments(batch: ReadonlyArray<{ idKey: Buffer; trigrams: Iterable<string> }>): void {
    const byTrigram = new Map<string, Buffer[]>();
    for (const { idKey, trigrams } of batch) {
      if (this.table.doesExist(pendingKey(idKey))) continue;
      for (const trigram of trigrams) {
        const ids = byTrigram.get(trigram) ?? [];
        ids.push(idKey);
        byTrigram.set(trigram, ids);
      }
    }
    for (const [trigram, ids] of byTrigram) this.#fold(trigram, sortedUnique(ids));
  }

  /** Folds every pending document into the blocks and empties the pending list. */
  merge(): void {
    const byTrigram = new Map<string, Buffer[]>();
    const keys: Buffer[] = [];
    for (const { key, value } of this.table.getRange({ start: Buffer.from([PENDING]) })) {
      const idKey = Buffer.from((key as Buffer).subarray(1));
      keys.push(tagged(PENDING, idKey));
      for (const trigram of splitTrigrams(value as Buffer)) {
        const ids = byTrigram.get(trigram) ?? [];
        ids.push(idKey);
        byTrigram.set(trigram, ids);
      }
    }
    for (const key of keys) this.table.removeSync(key);
    for (const [trigram, ids] of byTrigram) this.#fold(trigram, sortedUnique(ids));
    this.#stamp(0);
  }

  #pendingDocs(): number {
    return this.table.getBinary(STAMP)?.readUInt32BE(8) ?? 0;
  }

  #stamp(pendingDocs: number): void {
    if (pendingDocs === 0) {
      this.table.removeSync(STAMP);
      return;
    }
    const stamp = Buffer.allocUnsafe(12);
    randomBytes(8).copy(stamp);
    stamp.writeUInt32BE(pendingDocs, 8);
    this.table.putSync(STAMP, stamp);
  }

  #addToCount(trigram: string, change: number): void {
    const count = this.#storedCount(trigram) + change;
    const key = countKey(trigram);
    if (count <= 0) this.table.removeSync(key);
    else {
      const bytes = Buffer.allocUnsafe(4);
      bytes.writeUInt32BE(count, 0);
      this.table.putSync(key, bytes);
    }
  }

  /** Writes a sorted list as blocks of at most `block` keys, each under its first key. */
  #putBlocks(trigram: string, ids: Buffer[]): void {
    for (let at = 0; at < ids.length; at += this.sizes.block) {
      const chunk = ids.slice(at, at + this.sizes.block);
      this.table.putSync(blockKey(trigram, chunk[0] as Buffer), encodeBlock(chunk));
    }
  }

  /** The first key of the block after the one under `key`, in the same trigram's list. */
  #nextFirst(trigram: string, key: Buffer): Buffer | undefined {
    const prefix = trigramKey(trigram);
    const end = Buffer.concat([prefix, AFTER]);
    for (const found of this.table.getKeys({ start: key, end, exclusiveStart: true, limit: 1 }))
      return Buffer.from((found as Buffer).subarray(prefix.length));
    return undefined;
  }

  /** Adds sorted, distinct `_id` keys to a trigram's blocks: each block touched is rewritten once. */
  #fold(trigram: string, ids: Buffer[]): void {
    let added = 0;
    let i = 0;
    while (i < ids.length) {
      const first = ids[i] as Buffer;
      const block = this.floorBlock(trigram, first) ?? this.#firstBlock(trigram);
      if (!block) {
        this.#putBlocks(trigram, ids.slice(i));
        added += ids.length - i;
        break;
      }
      const upper = this.#nextFirst(trigram, block.key);
      let j = i;
      while (j < ids.length && (!upper || Buffer.compare(ids[j] as Buffer, upper) < 0)) j++;
      const merged = union(block.ids, ids.slice(i, j));
      added += merged.length - block.ids.length;
      if (merged.length !== block.ids.length) {
        this.table.removeSync(block.key);
        this.#putBlocks(trigram, merged);
      }
      i = j;
    }
    if (added > 0) this.#addToCount(trigram, added);
  }

  #firstBlock(trigram: string): Block | undefined {
    const start = trigramKey(trigram);
    const end = Buffer.concat([start, AFTER]);
    for (const { key, value } of this.table.getRange({ start, end, limit: 1 }))
      return { key: Buffer.from(key as Buffer), ids: decodeBlock(value as Buffer) };
    return undefined;
  }

  #removeFromBlocks(trigram: string, idKey: Buffer): void {
    const block = this.floorBlock(trigram, idKey);
    const at = block ? indexOfKey(block.ids, idKey) : -1;
    if (!block || at < 0) return;
    block.ids.splice(at, 1);
    if (at === 0 || block.ids.length === 0) this.table.removeSync(block.key);
    if (block.ids.length > 0) this.#putBlocks(trigram, block.ids);
    this.#addToCount(trigram, -1);
  }
}
