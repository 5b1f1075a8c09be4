import { BSON, type Document, Long } from 'bson';
import { CommandError } from './errors.js';
import type { TimeLimit } from './time-limit.js';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;
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
  lastUsed: number;
}

export interface OpenOptions {
  batchSize: number;
  singleBatch?: boolean | undefined;
  present?: Present | undefined;
  timeLimit?: TimeLimit | undefined;
}

/** Results still to be fetched with getMore, by cursor id; idle cursors expire after 10 minutes. */
export class Cursors {
  readonly #open = new Map<number, OpenCursor>();
  #nextId = 1 + Math.floor(Math.random() * 2 ** 40);

  /** The `cursor` reply of a command whose results `docs` yields (in order, skip and limit applied). */
  open(
    ns: string,
    docs: Iterable<Document> | Iterator<Document>,
    { batchSize, singleBatch, present = (d) => d, timeLimit }: OpenOptions,
  ): Document {
    this.#expireIdle();
    const iterator = Symbol.iterator in docs ? docs[Symbol.iterator]() : docs;
    const cursor: OpenCursor = { ns, docs: iterator, present, timeLimit, lastUsed: Date.now() };
    const { batch, exhausted } = take(cursor, batchSize || DEFAULT_BATCH_SIZE);
    let id = 0;
    if (!exhausted && singleBatch) iterator.return?.();
    else if (!exhausted) {
      id = this.#nextId++;
      this.#open.set(id, cursor);
    }
    return { cursor: { firstBatch: batch, id: Long.fromNumber(id), ns } };
  }

  getMore(cursorId: unknown, batchSize: number | undefined): Document {
    const id = toId(cursorId);
    const cursor = this.#open.get(id);
    if (!cursor)
      throw new CommandError(43, 'CursorNotFound', `cursor id ${String(cursorId)} not found`);
    this.#open.delete(id);
    cursor.lastUsed = Date.now();
    const { batch, exhausted } = take(cursor, batchSize || Infinity);
    if (!exhausted) this.#open.set(id, cursor);
    return { cursor: { nextBatch: batch, id: Long.fromNumber(exhausted ? 0 : id), ns: cursor.ns } };
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

  closeAll(): void {
    for (const cursor of this.#open.values()) cursor.docs.return?.();
    this.#open.clear();
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

/** The next batch: up to `batchSize` documents and about 16 MiB, at least one document. */
function take(cursor: OpenCursor, batchSize: number): { batch: Document[]; exhausted: boolean } {
  const docs: Document[] = [];
  let bytes = 0;
  let exhausted = false;
  cursor.timeLimit?.resume();
  try {
    while (docs.length < batchSize) {
      const next = cursor.docs.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      docs.push(next.value);
      bytes += BSON.calculateObjectSize(next.value);
      if (bytes > MAX_BATCH_BYTES) break;
    }
  } catch (error) {
    cursor.docs.return?.();
    throw error;
  } finally {
    cursor.timeLimit?.pause();
  }
  return { batch: cursor.present(docs), exhausted };
}
