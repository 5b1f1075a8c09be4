import { BSON, type Document, Long } from 'bson';
import { CommandError } from './errors.js';
import { PAUSE, ScanQueue, type Slices } from './slices.js';
import type { TimeLimit } from './time-limit.js';

/**
 * A reply is one BSON document of at most 16 MiB (js-bson will not write one much larger): a
 * batch stops before its documents, each with its array entry's own bytes, pass this.
 */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** Open cursors hold LMDB read snapshots: beyond this many, the least recently used is closed. */
const MAX_OPEN = 1000;
export const DEFAULT_BATCH_SIZE = 101;

/** Turns stored documents into what the client sees (a projection, say); identity when absent. */
export type Present = (docs: Document[]) => Document[];

interface OpenCursor {
  ns: string;
  docs: Iterator<Document>;
  present: Present;
  timeLimit: TimeLimit | undefined;
  slices: Slices | undefined;
  /** Where its long scan takes turns with the others'. */
  queue: ScanQueue;
  lastUsed: number;
  /** The document that did not fit in the last batch: the next one starts with it. */
  held?: Document | undefined;
  /** The server is closing: a batch under way stops at its next slice. */
  closed?: boolean;
}

export interface OpenOptions {
  batchSize: number;
  singleBatch?: boolean | undefined;
  present?: Present | undefined;
  timeLimit?: TimeLimit | undefined;
  /** The slices `docs` pauses in (./slices.ts). */
  slices?: Slices | undefined;
}

const interruptedAtShutdown = () =>
  new CommandError(11600, 'InterruptedAtShutdown', 'interrupted at shutdown');

/** Results still to be fetched with getMore, by cursor id; idle cursors expire after 10 minutes. */
export class Cursors {
  readonly #open = new Map<number, OpenCursor>();
  /** Cursors whose batch is being read, a slice at a time. */
  readonly #reading = new Set<OpenCursor>();
  readonly #queue = new ScanQueue();
  #collecting = 0;
  #closed = false;
  #nextId = 1 + Math.floor(Math.random() * 2 ** 40);

  /** The `cursor` reply of a command whose results `docs` yields (in order, skip and limit applied). */
  open(
    ns: string,
    docs: Iterable<Document> | Iterator<Document>,
    { batchSize, singleBatch, present = (d) => d, timeLimit, slices }: OpenOptions,
  ): Document | Promise<Document> {
    this.#expireIdle();
    const iterator = Symbol.iterator in docs ? docs[Symbol.iterator]() : docs;
    const cursor: OpenCursor = {
      ns,
      docs: iterator,
      present,
      timeLimit,
      slices,
      queue: this.#queue,
      lastUsed: Date.now(),
    };
    return this.#read(cursor, batchSize || DEFAULT_BATCH_SIZE, ({ batch, exhausted }) => {
      let id = 0;
      if (!exhausted && singleBatch) iterator.return?.();
      else if (!exhausted) {
        id = this.#nextId++;
        this.#open.set(id, cursor);
      }
      return { cursor: { firstBatch: batch, id: Long.fromNumber(id), ns } };
    });
  }

  getMore(cursorId: unknown, batchSize: number | undefined): Document | Promise<Document> {
    const id = toId(cursorId);
    const cursor = this.#open.get(id);
    if (!cursor)
      throw new CommandError(43, 'CursorNotFound', `cursor id ${String(cursorId)} not found`);
    this.#open.delete(id);
    cursor.lastUsed = Date.now();
    return this.#read(cursor, batchSize || Infinity, ({ batch, exhausted }) => {
      if (!exhausted) this.#open.set(id, cursor);
      const nextId = Long.fromNumber(exhausted ? 0 : id);
      return { cursor: { nextBatch: batch, id: nextId, ns: cursor.ns } };
    });
  }

  /** The next batch, then the reply `done` makes of it: now, or once a sliced scan is through. */
  #read(
    cursor: OpenCursor,
    batchSize: number,
    done: (batch: Batch) => Document,
  ): Document | Promise<Document> {
    const batch = take(cursor, batchSize);
    if (!(batch instanceof Promise)) return done(batch);
    this.#reading.add(cursor);
    return batch.then(done).finally(() => {
      this.#reading.delete(cursor);
      if (cursor.slices) this.#queue.done(cursor.slices);
    });
  }

  kill(cursorIds: unknown[]): Document {
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const cursorId of cursorIds) {
      const id = toId(cursorId);
      const cursor = this.#open.get(id);
      cursor?.docs.return?.();
      (this.#open.delete(id) ? cursorsKilled : cursorsNotFound).push(Long.fromNumber(id));
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  get size(): number {
    return this.#open.size;
  }

  /** Batches being read a slice at a time (long scans) right now, and aggregations' selections. */
  get reading(): number {
    return this.#reading.size + this.#collecting;
  }

  /**
   * Every document of a sliced scan (an aggregation's selection), read as a batch is: slice by
   * slice, taking turns with the other long scans.
   */
  async collect(
    docs: Iterator<Document>,
    slices: Slices,
    timeLimit?: TimeLimit,
  ): Promise<Document[]> {
    const out: Document[] = [];
    this.#collecting++;
    try {
      slices.start();
      for (let next = docs.next(); !next.done; next = docs.next()) {
        if (next.value !== PAUSE) {
          out.push(next.value);
          continue;
        }
        await this.#queue.pause(slices, timeLimit);
        if (this.#closed) throw interruptedAtShutdown();
        slices.start();
      }
      return out;
    } catch (error) {
      docs.return?.();
      throw error;
    } finally {
      this.#collecting--;
      this.#queue.done(slices);
    }
  }

  closeAll(): void {
    for (const cursor of this.#open.values()) cursor.docs.return?.();
    this.#open.clear();
    for (const cursor of this.#reading) cursor.closed = true;
    this.#closed = true;
  }

  #expireIdle(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [id, cursor] of this.#open) {
      // Map order is least recently used first (getMore re-inserts).
      if (cursor.lastUsed >= cutoff && this.#open.size < MAX_OPEN) break;
      cursor.docs.return?.();
      this.#open.delete(id);
    }
  }
}

/** A cursor id as the client sent it (a number or a Long), as a number; NaN if neither. */
export const toId = (cursorId: unknown): number =>
  typeof cursorId === 'number'
    ? cursorId
    : Long.isLong(cursorId)
      ? cursorId.toNumber()
      : Number.NaN;

interface Batch {
  batch: Document[];
  exhausted: boolean;
}

/** A document's bytes in a batch: its own, and its array entry's type byte and index key. */
const entryBytes = (doc: Document, at: number) =>
  BSON.calculateObjectSize(doc) + 2 + String(at).length;

/**
 * The next batch: up to `batchSize` documents and a reply that fits in 16 MiB, at least one
 * document. A sliced scan (./slices.ts) is waited for turn by turn: the batch is a promise then.
 */
function take(cursor: OpenCursor, batchSize: number): Batch | Promise<Batch> {
  cursor.timeLimit?.resume();
  return fill(cursor, batchSize, [], 0);
}

function fill(
  cursor: OpenCursor,
  batchSize: number,
  docs: Document[],
  bytes: number,
): Batch | Promise<Batch> {
  let total = bytes;
  let exhausted = false;
  cursor.slices?.start();
  try {
    if (cursor.closed) throw interruptedAtShutdown();
    while (docs.length < batchSize) {
      const next: IteratorResult<Document> = cursor.held
        ? { done: false, value: cursor.held }
        : cursor.docs.next();
      cursor.held = undefined;
      if (next.done) {
        exhausted = true;
        break;
      }
      if (next.value === PAUSE)
        return cursor.queue.pause(cursor.slices as Slices, cursor.timeLimit).then(
          () => fill(cursor, batchSize, docs, total),
          (error: unknown) => stopped(cursor, error),
        );
      const size = entryBytes(next.value, docs.length);
      if (docs.length > 0 && total + size > MAX_BATCH_BYTES) {
        cursor.held = next.value;
        break;
      }
      docs.push(next.value);
      total += size;
    }
  } catch (error) {
    return stopped(cursor, error);
  }
  cursor.timeLimit?.pause();
  return { batch: cursor.present(docs), exhausted };
}

/** A batch that failed (its time limit, say): the scan ends with it. */
function stopped(cursor: OpenCursor, error: unknown): never {
  cursor.docs.return?.();
  cursor.timeLimit?.pause();
  throw error;
}
