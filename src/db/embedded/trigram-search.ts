import type { Document } from 'bson';
import { ForwardProbe } from './forward-probe.js';
import type { Index } from './indexes.js';
import { blockCount, firstKeyOf } from './posting-codec.js';
import { BlockKeys, compareBytes, holdsKey, KeyCursor } from './posting-keys.js';
import { probeOrder } from './probe-order.js';
import { patternTrigrams, type TrigramQuery, usable } from './trigram-pattern.js';
import {
  type Block,
  insertionPoint,
  type PendingView,
  type TrigramPostings,
} from './trigram-postings.js';
import { isOperatorObject, isPlainObject } from './values.js';

/**
 * Reading up to this many postings (each probed for the other trigrams) costs less than
 * reading another index in the sort's order until the page is full could; past it (or when
 * half the documents hold the rarest trigram), when another index has the sort's order and a
 * limit, that one is read, each entry probed for one trigram (./planner.ts, choose).
 */
export const POSTINGS_BUDGET = 20_000;
/** At most this many trigrams of one pattern are looked up (any subset is still required). */
const MOST_TRIGRAMS = 12;
/**
 * A list up to this many times the driver's postings is read whole, one block after another, to
 * probe the candidates; a longer one is sought a block at a time (./forward-probe.ts).
 */
const WALK_RATIO = 8;
/**
 * A later list short enough to walk (WALK_RATIO) is sought this many times, then walked on from
 * there: the keys left after the first list are then many, each mostly in a block of its own.
 */
const SEEKS_BEFORE_WALK = 1;
/** A trigram in at least this share of the documents is not probed (Postings, #probed). */
const COMMON_SHARE = 0.9;

/** A `$regex` on a trigram-indexed field: the index and what every match contains. */
export interface TrigramSearch {
  postings: Postings;
  query: TrigramQuery;
  /** The postings of the rarest required trigram (./trigram-search.ts, Postings). */
  estimate: number;
}

/** The regexes a filter applies to `field`: its own condition and those in a top-level `$and`. */
function fieldRegexes(filter: Document, field: string): RegExp[] {
  const found: RegExp[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition))
      for (const part of condition.filter(isPlainObject)) found.push(...fieldRegexes(part, field));
    if (key !== field) continue;
    if (condition instanceof RegExp) found.push(condition);
    else if (isOperatorObject(condition) && condition.$regex instanceof RegExp)
      found.push(condition.$regex);
  }
  return found;
}

/** Fewer trigrams, spread along the pattern, when it has many. */
const fewer = (trigrams: string[]) =>
  trigrams.length <= MOST_TRIGRAMS
    ? trigrams
    : Array.from(
        { length: MOST_TRIGRAMS },
        (_, i) => trigrams[Math.floor((i * trigrams.length) / MOST_TRIGRAMS)] as string,
      );

/**
 * For one collection: the trigram index that narrows a filter's `$regex` (the rarest first),
 * if any. The filters asked about (a whole filter, the branches of its `$or`) share each
 * trigram's count and the blocks read. Regexes here come from ./regex.ts: without `i` (rewritten into
 * classes) and without `u`.
 */
export function trigramSearcher(
  indexes: Iterable<Index>,
  documents = Number.POSITIVE_INFINITY,
): (filter: Document) => TrigramSearch | undefined {
  const trigramIndexes = [...indexes].filter((index) => index.trigram);
  let postings: Postings[] | undefined;
  return (filter) => {
    if (trigramIndexes.length === 0) return undefined;
    postings ??= trigramIndexes.map((index) => new Postings(index, documents));
    let best: TrigramSearch | undefined;
    for (const indexed of postings) {
      for (const regex of fieldRegexes(filter, indexed.index.fields[0] as string)) {
        if (/[iuv]/.test(regex.flags)) continue;
        const query = indexed.ranked(patternTrigrams(regex.source));
        if (!usable(query)) continue;
        const estimate = indexed.estimate(query);
        if (!best || estimate < best.estimate) best = { postings: indexed, query, estimate };
      }
    }
    return best;
  };
}

/**
 * For `explain`: the index, the trigrams looked up (the rarest first), alternations as
 * `either`, and how many documents wait in its pending list (./trigram-postings.ts).
 */
export function describeTrigrams({ postings, query }: TrigramSearch): Document {
  const described = (q: TrigramQuery): Document => ({
    all: q.all,
    ...(q.either.length > 0 && { either: q.either.map((branches) => branches.map(described)) }),
  });
  return {
    indexName: postings.index.name,
    trigrams: described(query),
    waitingDocuments: postings.index.postings?.waitingDocs() ?? 0,
  };
}

/** Whether a document, by the `_id` key in `key` from `start` to `end`, holds a trigram. */
type Probe = (key: Uint8Array, start: number, end: number) => boolean;

/** Whether a block read answers for the `_id` key in `key` from `start` to `end` (./trigram-postings.ts, Block). */
const answersFor = (block: Block<BlockKeys>, key: Uint8Array, start: number, end: number) =>
  (!block.lower || compareBytes(key, start, end, block.lower, 0, block.lower.length) >= 0) &&
  (!block.upper || compareBytes(key, start, end, block.upper, 0, block.upper.length) < 0);

/**
 * The keys of a driver's block that pass, each after the pending keys before it (one also in
 * the block, a document rewritten, probed once), put in `passed`; returns where the pending
 * keys left off. A plain loop (not a generator's) is compiled while it runs.
 */
function passingIn(
  block: Uint8Array,
  cursor: KeyCursor,
  pending: readonly Buffer[],
  from: number,
  passes: Probe,
  examined: () => void,
  passed: Buffer[],
): number {
  let p = from;
  cursor.start(block);
  while (cursor.next()) {
    const { key, length } = cursor;
    for (let waiting = pending[p]; waiting !== undefined; waiting = pending[p]) {
      const order = compareBytes(waiting, 0, waiting.length, key, 0, length);
      if (order > 0) break;
      p++;
      if (order === 0) break;
      examined();
      if (passes(waiting, 0, waiting.length)) passed.push(waiting);
    }
    examined();
    if (passes(key, 0, length)) passed.push(cursor.copy());
  }
  return p;
}

/**
 * A trigram index's postings (./trigram-postings.ts) as one search reads them: for each
 * trigram, the `_id` keys of the documents holding it. Documents are probed mostly in `_id`
 * order (or nearly: the sort index of a newest-first page), so the last block read of each
 * trigram answers most probes without another read.
 */
export class Postings {
  readonly #counts = new Map<string, number>();
  readonly #probes = new Map<string, Probe>();
  readonly #lists: TrigramPostings;
  /** The pending list as this search found it. */
  readonly #pending: PendingView;

  /** `documents`: how many the collection holds (a trigram in nearly all of them is not probed). */
  constructor(
    readonly index: Index,
    private readonly documents = Number.POSITIVE_INFINITY,
  ) {
    this.#lists = index.postings as TrigramPostings;
    this.#pending = this.#lists.pending();
  }

  /**
   * Whether the document filed under the `_id` key in `key` (from `start` to `end`: a sort
   * index's entry ends with it) holds the trigram.
   */
  has(trigram: string, key: Uint8Array, start = 0, end = key.length): boolean {
    let probe = this.#probes.get(trigram);
    if (!probe) {
      probe = this.#probe(trigram);
      this.#probes.set(trigram, probe);
    }
    return probe(key, start, end);
  }

  /** Whether the list holds a key, for keys in any order: the last block read answers most. */
  #probe(trigram: string): Probe {
    const waiting = this.#waiting(trigram);
    let block: Block<BlockKeys> | undefined;
    return (key, start, end) => {
      if (waiting.length > 0 && holdsKey(waiting, key, start, end)) return true;
      if (!block || !answersFor(block, key, start, end)) {
        block = this.#lists.keysFor(trigram, key, start, end);
        if (!block) return false;
      }
      return block.ids.has(key, start, end);
    };
  }

  /** How many documents hold a trigram (kept with the lists: ./trigram-postings.ts). */
  count(trigram: string): number {
    let count = this.#counts.get(trigram);
    if (count === undefined) {
      count = this.#lists.count(trigram);
      this.#counts.set(trigram, count);
    }
    return count;
  }

  /** The query with fewer trigrams, the rarest first (the first one drives a search). */
  ranked(query: TrigramQuery): TrigramQuery {
    const all = fewer(query.all).sort((a, b) => this.count(a) - this.count(b));
    return { all, either: query.either.map((branches) => branches.map((b) => this.ranked(b))) };
  }

  /** About how many documents a ranked query may select, at most (estimated as `count` is). */
  estimate(query: TrigramQuery): number {
    if (query.all.length > 0) return this.count(query.all[0] as string);
    const [branches = []] = query.either;
    return branches.reduce((sum, branch) => sum + this.estimate(branch), 0);
  }

  /**
   * The candidates of a query with a trigram of its own: the postings of its rarest one, each
   * probed for the others, read block by block (a Buffer only for those that pass).
   */
  *#driven(
    query: TrigramQuery,
    driver: string,
    reverse: boolean,
    examined: () => void,
  ): Generator<Buffer> {
    if (!reverse) {
      const walkUpTo = WALK_RATIO * this.count(driver);
      return yield* this.#forward(this.#probed(query), examined, {
        blocks: this.#lists.storedBlocks(driver, false, (stored) => stored),
        pending: this.#waiting(driver),
        walk: (trigram) => this.count(trigram) <= walkUpTo,
      });
    }
    const pending = this.#waiting(driver);
    // The next rarest trigram's blocks are read one after another, as the driver's are.
    const [, second] = query.all;
    const walk = second === undefined ? undefined : this.#walk(second, reverse);
    const passes = (key: Uint8Array, start: number, end: number) =>
      (walk === undefined || walk.has(key, start, end)) && this.holds(query, key, 2, start, end);
    const sign = reverse ? -1 : 1;
    let p = reverse ? pending.length - 1 : 0;
    const step = reverse ? -1 : 1;
    /** The pending keys that come before key `i` of `keys` (all of them when none), each probed. */
    const pendingBefore = function* (this: Postings, keys?: BlockKeys, i = 0): Generator<Buffer> {
      for (let waiting = pending[p]; waiting; waiting = pending[p]) {
        const order = keys ? keys.compare(i, waiting) * sign : 1;
        if (order < 0) return;
        p += step;
        // A key both pending and in a block (a document rewritten) is probed once.
        if (order === 0) return;
        examined();
        if (passes(waiting, 0, waiting.length)) yield waiting;
      }
    }.bind(this);
    try {
      for (const keys of this.#lists.storedBlocks(driver, reverse, BlockKeys.decode))
        for (let n = 0; n < keys.length; n++) {
          const i = reverse ? keys.length - 1 - n : n;
          const waiting = pending[p];
          if (waiting && keys.compare(i, waiting) * sign >= 0) yield* pendingBefore(keys, i);
          examined();
          if (passes(keys.bytes, keys.starts[i] as number, keys.starts[i + 1] as number))
            yield keys.key(i);
        }
      yield* pendingBefore();
    } finally {
      // An LMDB read left open would keep its snapshot's pages from being reused.
      walk?.close();
    }
  }

  /**
   * The query without the required trigrams 9 in 10 documents hold or more (the rarest one
   * kept): probing one of those costs a block read for each candidate left, to reject at most
   * the few documents lacking it. Every candidate is fetched and tested against the whole filter
   * anyway. (The sample of the newest postings that estimates the matches probes every
   * trigram: ./trigram-plan.ts, likelyMatches.)
   */
  #probed(query: TrigramQuery): TrigramQuery {
    const kept = query.all.findIndex(
      (trigram, i) => i > 0 && this.count(trigram) >= COMMON_SHARE * this.documents,
    );
    return kept < 0 ? query : { all: query.all.slice(0, kept), either: query.either };
  }

  /** A trigram's pending keys (sorted). */
  #waiting(trigram: string): readonly Buffer[] {
    return this.#pending.byTrigram.get(trigram) ?? [];
  }

  /**
   * Whether enough of the newest postings (by `_id`) of a ranked query's rarest trigram hold
   * every trigram the query requires: of `newest` at least (whole blocks, with the pending keys
   * among them), `enough(held, read)`. `enough` grows with `held`, so the blocks are probed only
   * until the answer can no longer change (the keys not yet probed all holding, or none).
   */
  sampleNewest(
    query: TrigramQuery,
    driver: string,
    newest: number,
    enough: (held: number, read: number) => boolean,
  ): boolean {
    const waiting = this.#waiting(driver);
    const last = this.#lists.tailBlock(driver)?.last;
    // Pending keys after every block's: enough of them are the newest.
    const after = last
      ? waiting.length - insertionPoint(waiting, Buffer.from(last))
      : waiting.length;
    let pending: readonly Buffer[] = waiting.slice(Math.max(0, waiting.length - newest));
    const blocks: Uint8Array[] = [];
    let stored = 0;
    if (after < newest) {
      for (const block of this.#lists.storedBlocks(driver, true, (value) => value)) {
        blocks.push(block);
        stored += blockCount(block);
        const first = firstKeyOf(block);
        if (first) pending = waiting.slice(insertionPoint(waiting, first));
        if (stored + pending.length >= newest) break;
      }
      // Every block read: every pending key is among them.
      if (stored + pending.length < newest) pending = waiting;
    }
    // A pending key also in a block (a document rewritten) is probed once: at most this many.
    const read = stored + pending.length;
    let examined = 0;
    let held = 0;
    const settled = () => enough(held, read) || !enough(held + read - examined, read);
    // The blocks are probed one after another while the answer is open.
    const open = function* () {
      for (const block of blocks.reverse()) {
        if (settled()) return;
        yield block;
      }
    };
    // Those few blocks' span of the other lists is sought, not read from their start.
    const walk = () => false;
    const count = () => examined++;
    for (const _ of this.#forward(query, count, { blocks: open(), pending, walk })) held++;
    return enough(held, read);
  }

  /**
   * `#driven` in `_id` order, over the driver's `blocks` (as stored, in order) and its `pending`
   * keys: each key read one at a time and probed for the other trigrams in turn, each of their
   * lists read block after block (`walk`) or sought, as far as the probes go (./forward-probe.ts).
   */
  *#forward(
    query: TrigramQuery,
    examined: () => void,
    driver: {
      blocks: Iterable<Uint8Array>;
      pending: readonly Buffer[];
      walk: (trigram: string) => boolean;
    },
  ): Generator<Buffer> {
    const { pending } = driver;
    const [first, ...others] = query.all;
    const ordered = first === undefined ? [] : probeOrder(first, others, (t) => this.count(t));
    // Only the first list probed is probed with every key of the driver's: the later ones see
    // those left, mostly few, so each of their blocks is sought when a probe falls past the last,
    // until the probes have fallen past it a few times (./forward-probe.ts).
    const probes = ordered.map(
      (trigram, i) =>
        new ForwardProbe(
          this.#lists,
          trigram,
          this.#waiting(trigram),
          !driver.walk(trigram) ? Number.POSITIVE_INFINITY : i === 0 ? 0 : SEEKS_BEFORE_WALK,
        ),
    );
    const from = query.all.length;
    const alternations = query.either.length > 0;
    // Run for every key of the driver's: a plain loop, no closure made per key.
    const passes = (key: Uint8Array, start: number, end: number) => {
      for (let i = 0; i < probes.length; i++)
        if (!(probes[i] as ForwardProbe).has(key, start, end)) return false;
      return !alternations || this.holds(query, key, from, start, end);
    };
    const cursor = new KeyCursor();
    const passed: Buffer[] = [];
    let p = 0;
    try {
      for (const block of driver.blocks) {
        p = passingIn(block, cursor, pending, p, passes, examined, passed);
        yield* passed;
        passed.length = 0;
      }
      for (; p < pending.length; p++) {
        const waiting = pending[p] as Buffer;
        examined();
        if (passes(waiting, 0, waiting.length)) yield waiting;
      }
    } finally {
      for (const probe of probes) probe.close();
    }
  }

  /** A trigram's postings for keys probed in `_id` order (or its reverse): its pending ones, then its blocks in turn. */
  #walk(
    trigram: string,
    reverse: boolean,
  ): { has: (key: Uint8Array, start: number, end: number) => boolean; close: () => void } {
    const waiting = this.#pending.byTrigram.get(trigram) ?? [];
    const blocks = new BlockWalk(
      this.#lists.storedBlocks(trigram, reverse, BlockKeys.decode),
      reverse,
    );
    return {
      has: (key, start, end) => holdsKey(waiting, key, start, end) || blocks.has(key, start, end),
      close: () => blocks.close(),
    };
  }

  /** The `_id` keys holding one trigram, in `_id` order or its reverse. */
  ids(trigram: string, reverse: boolean): Generator<Buffer> {
    return this.#lists.ids(trigram, reverse);
  }

  /**
   * Whether the document filed under the `_id` key in `key` (from `start` to `end`) holds what
   * the ranked query requires, its required trigrams from `from` on.
   */
  holds(query: TrigramQuery, key: Uint8Array, from = 0, start = 0, end = key.length): boolean {
    for (let i = from; i < query.all.length; i++)
      if (!this.has(query.all[i] as string, key, start, end)) return false;
    if (query.either.length === 0) return true;
    return query.either.every((branches) =>
      branches.some((b) => this.holds(b, key, 0, start, end)),
    );
  }

  /**
   * A cheaper `holds` for a sieve over another index, where each entry would otherwise be
   * fetched and tested: the rarest trigram only (each further lookup would cost about what it
   * saves when every trigram is common). Made once per scan: each probe then looks nothing up
   * by name.
   */
  sieve(query: TrigramQuery): Probe {
    const rarest = query.all[0];
    if (rarest === undefined) return (key, start, end) => this.holds(query, key, 0, start, end);
    return this.#probe(rarest);
  }

  /**
   * The `_id` keys of the documents that may match a ranked query, in `_id` order (or its
   * reverse): the rarest trigram's postings, each probed for the others; without a trigram of
   * its own, the union of its first alternation's branches. `examined`: one per posting read.
   */
  *candidates(query: TrigramQuery, reverse: boolean, examined: () => void): Generator<Buffer> {
    const [driver] = query.all;
    if (driver !== undefined) return yield* this.#driven(query, driver, reverse, examined);
    const [branches = [], ...others] = query.either;
    const union = new Map<string, Buffer>();
    for (const branch of branches)
      for (const idKey of this.candidates(branch, reverse, examined))
        union.set(idKey.toString('latin1'), idKey);
    const ordered = [...union.values()].sort(Buffer.compare);
    if (reverse) ordered.reverse();
    const rest = { all: [], either: others };
    for (const idKey of ordered) if (this.holds(rest, idKey)) yield idKey;
  }
}

/**
 * A list's blocks read one after another, for keys probed in the list's order (or its reverse):
 * a block is read once the keys probed pass the one before it.
 */
class BlockWalk {
  #keys: BlockKeys | undefined;
  #done = false;

  constructor(
    private readonly blocks: Iterator<BlockKeys>,
    private readonly reverse: boolean,
  ) {}

  /** Whether the list holds the key in `key` from `start` to `end` (keys probed in the walk's order). */
  has(key: Uint8Array, start: number, end: number): boolean {
    for (;;) {
      const keys = this.#keys;
      if (keys && keys.length > 0) {
        // The block's last key in the walk's order is not before the probed one: it is here or nowhere.
        const order = keys.compare(this.reverse ? 0 : keys.length - 1, key, start, end);
        if (this.reverse ? order <= 0 : order >= 0) return keys.has(key, start, end);
      }
      if (this.#done) return false;
      const next = this.blocks.next();
      this.#done = next.done === true;
      this.#keys = next.done ? undefined : next.value;
    }
  }

  /** Ends the read of the blocks (when the keys probed stop before the list does). */
  close(): void {
    if (!this.#done) this.blocks.return?.(undefined);
    this.#done = true;
  }
}
