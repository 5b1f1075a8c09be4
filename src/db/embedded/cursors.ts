import { BSON, type Document, Long } from 'bson';
import { CommandError } from './errors.js';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_BATCH_SIZE = 101;

/** Turns stored documents into what the client sees (a projection, say); identity when absent. */
export type Present = (docs: Document[]) => Document[];

interface OpenCursor {
  ns: string;
  docs: Document[];
  position: number;
  present: Present;
  lastUsed: number;
}

export interface OpenOptions {
  batchSize: number;
  singleBatch?: boolean | undefined;
  present?: Present | undefined;
}

/** Results still to be fetched with getMore, by cursor id; idle cursors expire after 10 minutes. */
export class Cursors {
  readonly #open = new Map<number, OpenCursor>();
  #nextId = 1 + Math.floor(Math.random() * 2 ** 40);

  /** The `cursor` reply of a command returning `docs` (already in order, skip and limit applied). */
  open(
    ns: string,
    docs: Document[],
    { batchSize, singleBatch, present = (d) => d }: OpenOptions,
  ): Document {
    this.#expireIdle();
    const cursor: OpenCursor = { ns, docs, position: 0, present, lastUsed: Date.now() };
    const firstBatch = take(cursor, batchSize);
    let id = 0;
    if (!singleBatch && cursor.position < docs.length) {
      id = this.#nextId++;
      this.#open.set(id, cursor);
    }
    return { cursor: { firstBatch, id: Long.fromNumber(id), ns } };
  }

  getMore(cursorId: unknown, batchSize: number | undefined): Document {
    const id = toId(cursorId);
    const cursor = this.#open.get(id);
    if (!cursor)
      throw new CommandError(43, 'CursorNotFound', `cursor id ${String(cursorId)} not found`);
    cursor.lastUsed = Date.now();
    const nextBatch = take(cursor, batchSize || Infinity);
    const exhausted = cursor.position >= cursor.docs.length;
    if (exhausted) this.#open.delete(id);
    return { cursor: { nextBatch, id: Long.fromNumber(exhausted ? 0 : id), ns: cursor.ns } };
  }

  kill(cursorIds: unknown[]): Document {
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const cursorId of cursorIds) {
      const id = toId(cursorId);
      (this.#open.delete(id) ? cursorsKilled : cursorsNotFound).push(Long.fromNumber(id));
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  #expireIdle(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [id, cursor] of this.#open) if (cursor.lastUsed < cutoff) this.#open.delete(id);
  }
}

const toId = (cursorId: unknown): number =>
  typeof cursorId === 'number'
    ? cursorId
    : Long.isLong(cursorId)
      ? cursorId.toNumber()
      : Number.NaN;

/** The next batch: up to `batchSize` documents and about 16 MiB, at least one document. */
function take(cursor: OpenCursor, batchSize: number): Document[] {
  const end = Math.min(cursor.docs.length, cursor.position + batchSize);
  let count = 0;
  for (let bytes = 0; cursor.position + count < end; count++) {
    bytes += BSON.calculateObjectSize(cursor.docs[cursor.position + count] as Document);
    if (bytes > MAX_BATCH_BYTES && count > 0) break;
  }
  const batch = cursor.present(cursor.docs.slice(cursor.position, cursor.position + count));
  cursor.position += count;
  return batch;
}
