import { BSON, type Document, Long, Timestamp } from 'bson';
import { type Change, resumeToken, tokenSeq } from './change-log.js';
import { toId } from './cursors.js';
import { CommandError, failedToParse, notSupported } from './errors.js';
import { compileFilter, type Filter } from './query.js';
import type { Store } from './store.js';
import { isPlainObject } from './values.js';

const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_OPEN = 1000;
/** How long a getMore waits for a change when it names no `maxTimeMS`, as on mongod. */
export const DEFAULT_AWAIT_MS = 1000;
/** A batch without a batchSize: up to this many events, and about 16 MiB. */
const MAX_BATCH = 1000;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** One `$changeStream` cursor: a collection, where it is in the log, and what it shows. */
interface Stream {
  db: string;
  coll: string;
  /** The number of the last change this cursor has looked at. */
  position: number;
  lookup: boolean;
  filters: Filter[];
  lastUsed: number;
  /** Its collection was dropped: after the `drop` and `invalidate` events, the cursor closes. */
  invalidated?: true;
}

/** `{$changeStream: {...}}` and the `$match` stages after it. */
function parseStream(pipeline: Document[]): {
  lookup: boolean;
  after: unknown;
  filters: Filter[];
} {
  const spec = pipeline[0]?.$changeStream;
  if (!isPlainObject(spec)) throw failedToParse('$changeStream takes an object');
  for (const key of Object.keys(spec)) {
    if (!['fullDocument', 'resumeAfter', 'startAfter', 'fullDocumentBeforeChange'].includes(key))
      throw notSupported(`the $changeStream option '${key}'`);
  }
  const fullDocument = spec.fullDocument ?? 'default';
  if (fullDocument !== 'default' && fullDocument !== 'updateLookup')
    throw notSupported(`fullDocument: ${JSON.stringify(fullDocument)}`);
  if ((spec.fullDocumentBeforeChange ?? 'off') !== 'off')
    throw notSupported('fullDocumentBeforeChange');
  if (spec.resumeAfter !== undefined && spec.startAfter !== undefined)
    throw new CommandError(
      50865,
      'Location50865',
      'Do not specify both resumeAfter and startAfter',
    );
  const filters = pipeline.slice(1).map((stage) => {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1 || stage.$match === undefined)
      throw notSupported(`a $changeStream followed by ${JSON.stringify(Object.keys(stage))}`);
    return compileFilter(stage.$match);
  });
  return {
    lookup: fullDocument === 'updateLookup',
    after: spec.resumeAfter ?? spec.startAfter,
    filters,
  };
}

/**
 * Change stream cursors (`aggregate` with a first `$changeStream` stage), fed from the store's
 * change log. A `getMore` that finds no event waits for the next commit, up to its `maxTimeMS`
 * (1 s by default), without holding the event loop, then answers what it has, maybe nothing.
 */
export class ChangeStreams {
  readonly #open = new Map<number, Stream>();
  /** Ids of their own, apart from those of `Cursors` (which start below 2^41). */
  #nextId = 2 ** 41 + Math.floor(Math.random() * 2 ** 40);
  #waiting = new Set<() => void>();
  #closed = false;

  constructor(private readonly store: Store) {}

  /** The `cursor` reply of `aggregate` with `$changeStream` on `db.coll`. */
  open(db: string, coll: string, pipeline: Document[], batchSize: number): Document {
    this.#expireIdle();
    const { lookup, after, filters } = parseStream(pipeline);
    let position = this.store.changes.last;
    if (after !== undefined) {
      position = tokenSeq(after);
      this.store.changes.checkResumable(position);
    }
    const stream: Stream = { db, coll, position, lookup, filters, lastUsed: Date.now() };
    const firstBatch = batchSize === 0 ? [] : this.#read(stream, batchSize);
    const id = stream.invalidated ? 0 : this.#nextId++;
    if (id !== 0) this.#open.set(id, stream);
    return {
      cursor: {
        firstBatch,
        postBatchResumeToken: resumeToken(stream.position),
        id: Long.fromNumber(id),
        ns: `${db}.${coll}`,
      },
    };
  }

  has(cursorId: unknown): boolean {
    return this.#open.has(toId(cursorId));
  }

  /** The next events after the cursor's position, waiting up to `maxTimeMS` for one to come. */
  async getMore(command: Document): Promise<Document> {
    const id = toId(command.getMore);
    const stream = this.#stream(id);
    const limit =
      typeof command.batchSize === 'number' && command.batchSize > 0
        ? command.batchSize
        : MAX_BATCH;
    const wait =
      typeof command.maxTimeMS === 'number' && command.maxTimeMS >= 0
        ? command.maxTimeMS
        : DEFAULT_AWAIT_MS;
    const deadline = Date.now() + wait;
    let batch = this.#read(stream, limit);
    while (batch.length === 0 && !this.#closed && this.#open.has(id)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.#nextCommit(left);
      if (this.#closed || !this.#open.has(id)) break;
      batch = this.#read(stream, limit);
    }
    stream.lastUsed = Date.now();
    const open = this.#open.delete(id) && !this.#closed && !stream.invalidated;
    // Map order is least recently used first.
    if (open) this.#open.set(id, stream);
    return {
      cursor: {
        nextBatch: batch,
        postBatchResumeToken: resumeToken(stream.position),
        id: Long.fromNumber(open ? id : 0),
        ns: `${stream.db}.${stream.coll}`,
      },
    };
  }

  /** Removes those of the ids that are change streams'; returns the ids it removed. */
  kill(cursorIds: unknown[]): number[] {
    const killed: number[] = [];
    for (const cursorId of cursorIds) {
      const id = toId(cursorId);
      if (this.#open.delete(id)) killed.push(id);
    }
    // A getMore waiting on a killed cursor answers now.
    if (killed.length > 0) this.committed();
    return killed;
  }

  /** Called after every commit: waiting getMores look again. */
  committed(): void {
    const waiting = this.#waiting;
    this.#waiting = new Set();
    for (const wake of waiting) wake();
  }

  get size(): number {
    return this.#open.size;
  }

  /** Answers every waiting getMore (empty) and forgets every stream: the server is closing. */
  closeAll(): void {
    this.#closed = true;
    this.#open.clear();
    this.committed();
  }

  #stream(id: number): Stream {
    const stream = this.#open.get(id);
    if (!stream) throw new CommandError(43, 'CursorNotFound', `cursor id ${id} not found`);
    return stream;
  }

  #nextCommit(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waiting.add(wake);
    });
  }

  /** Up to `limit` events after the stream's position, moving it past every change it read. */
  #read(stream: Stream, limit: number): Document[] {
    const events: Document[] = [];
    let bytes = 0;
    const last = this.store.changes.last;
    for (const change of this.store.changes.after(stream.position)) {
      stream.position = change.seq;
      if (change.db !== stream.db || change.coll !== stream.coll) continue;
      const event = this.#event(change, stream.lookup);
      if (stream.filters.every((filter) => filter.test(event))) {
        events.push(event);
        bytes += BSON.calculateObjectSize(event);
      }
      if (change.op === 'drop') {
        // As on mongod: the stream ends with `invalidate`, whatever its $match.
        events.push({ ...this.#event(change, false), operationType: 'invalidate' });
        stream.invalidated = true;
        return events;
      }
      if (events.length >= limit || bytes > MAX_BATCH_BYTES) return events;
    }
    // Everything committed up to `last` has been read, including changes rolled back meanwhile.
    stream.position = Math.max(stream.position, last);
    return events;
  }

  /** The change event a driver expects, in mongod's field order. */
  #event(change: Change, lookup: boolean): Document {
    const event: Document = {
      _id: resumeToken(change.seq),
      operationType: change.op,
      clusterTime: new Timestamp({
        t: Math.floor(change.wall.getTime() / 1000),
        i: change.seq % 2 ** 32,
      }),
      wallTime: change.wall,
    };
    if (change.op === 'insert' || change.op === 'replace') event.fullDocument = change.doc;
    if (change.op === 'update' && lookup) event.fullDocument = this.#current(change) ?? null;
    event.ns = { db: change.db, coll: change.coll };
    if (change.op !== 'drop') event.documentKey = { _id: change.id };
    if (change.op === 'update') {
      event.updateDescription = {
        updatedFields: change.updated ?? {},
        removedFields: change.removed ?? [],
        truncatedArrays: [],
      };
    }
    return event;
  }

  /** The document as it is now (for `fullDocument: 'updateLookup'`), if it still exists. */
  #current(change: Change): Document | undefined {
    const coll = this.store.collection(change.db, change.coll);
    return coll?.fetch(coll.idKey(change.id));
  }

  #expireIdle(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [id, stream] of this.#open) {
      if (stream.lastUsed >= cutoff && this.#open.size < MAX_OPEN) break;
      this.#open.delete(id);
    }
  }
}
