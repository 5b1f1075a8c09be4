import type { Document } from 'bson';
import type { Collection } from './collection.js';
import { decodeDocument } from './documents.js';
import { CommandError } from './errors.js';
import type { Index } from './indexes.js';
import type { Store } from './store.js';
import type { Logger } from './types.js';

/** A batch stops after this long (one LMDB transaction); other commands run between batches. */
const BATCH_MS = 15;
/** Documents handed to the index at once within a batch. */
const CHUNK = 32;
/** The pause between batches while a long read runs: the reads go first. */
const YIELD_TO_READS_MS = 30;
/** Progress is logged at most this often. */
const LOG_EVERY_MS = 5_000;

/** An index still being built: where, and how far. */
export interface IndexBuildState {
  ns: string;
  index: string;
  done: number;
  total: number;
}

/** Every index being built in the background, as serverStatus and the service's metric report it. */
export function indexBuildStates(store: Store): IndexBuildState[] {
  const states: IndexBuildState[] = [];
  for (const db of store.databaseNames())
    for (const coll of store.collections(db))
      for (const index of coll.indexes.values())
        if (index.meta.building)
          states.push({
            ns: coll.ns,
            index: index.name,
            done: index.meta.building.done,
            total: coll.count(),
          });
  return states;
}

/**
 * Builds, in the background, the indexes created on a collection that already had documents
 * (./collection.ts `createIndex`): batch after batch in `_id` order, each one LMDB transaction
 * that also records how far the build has come, so a build cut short by a kill goes on from
 * there at the next start. Writes keep the documents it has passed up to date meanwhile (the
 * others it files as they are when it reaches them: ./indexes.ts `write`); the planner uses it
 * once every document is in (./planner.ts `usable`).
 */
export class IndexBuilds {
  #running = false;
  #stopped = false;
  #lastLog = 0;
  readonly #started = new Map<string, number>();
  /** Those waiting for a build to end (createIndexes), by `<ns> <index>`. */
  readonly #waiting = new Map<string, Array<(error?: unknown) => void>>();

  /** `busy`: whether long reads are under way (./cursors.ts `reading`); batches then wait. */
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly busy: () => boolean = () => false,
  ) {}

  /**
   * At start: an index whose stored format this release no longer reads (`outdated`) is
   * emptied and built again in the background, like a new one.
   */
  restartOutdated(): void {
    this.store.write(() => {
      for (const db of this.store.databaseNames())
        for (const coll of this.store.collections(db))
          for (const index of coll.indexes.values()) {
            if (!('outdated' in index) || index.outdated !== true || !index.ready) continue;
            if ('restart' in index && typeof index.restart === 'function') index.restart();
            else index.entries.clearSync();
            index.meta.building = { done: 0 };
            coll.saveMeta();
          }
    });
  }

  /** Builds what is pending, if nothing is under way: at start, and after createIndexes. */
  wake(): void {
    if (this.#running || this.#stopped || !this.#next()) return;
    this.#running = true;
    setImmediate(() => this.#step());
  }

  /** No batch starts after this (the data files are closing). */
  stop(): void {
    this.#stopped = true;
    const closing = new CommandError(11600, 'InterruptedAtShutdown', 'interrupted at shutdown');
    for (const key of [...this.#waiting.keys()]) this.#settle(key, closing);
  }

  /**
   * Resolves once the index is complete (at once if it is), or rejects with why it was
   * dropped: createIndexes answers then, as mongod's does once its build is done.
   */
  whenBuilt(db: string, collection: string, name: string): Promise<void> {
    const index = this.store.collection(db, collection)?.indexes.get(name);
    if (!index || index.ready) return Promise.resolve();
    const key = `${db}.${collection} ${name}`;
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(key) ?? [];
      waiting.push((error) => (error === undefined ? resolve() : reject(error)));
      this.#waiting.set(key, waiting);
    });
  }

  #stillBuilding(key: string): boolean {
    for (const db of this.store.databaseNames())
      for (const coll of this.store.collections(db))
        for (const index of coll.indexes.values())
          if (`${coll.ns} ${index.name}` === key) return !index.ready;
    return false;
  }

  #settle(key: string, error?: unknown): void {
    for (const settle of this.#waiting.get(key) ?? []) settle(error);
    this.#waiting.delete(key);
  }

  #next(): { coll: Collection; index: Index } | undefined {
    for (const db of this.store.databaseNames())
      for (const coll of this.store.collections(db))
        for (const index of coll.indexes.values()) if (!index.ready) return { coll, index };
    return undefined;
  }

  #step(): void {
    // An index dropped while it was being built: those waiting for it are answered.
    for (const key of [...this.#waiting.keys()]) if (!this.#stillBuilding(key)) this.#settle(key);
    const target = this.#stopped ? undefined : this.#next();
    if (!target) {
      this.#running = false;
      return;
    }
    const key = `${target.coll.ns} ${target.index.name}`;
    try {
      // Those waiting hear of a build once the transaction that ends it is committed.
      if (this.store.write(() => this.#batch(target.coll, target.index))) this.#settle(key);
    } catch (error) {
      this.#failed(target.coll, target.index, error);
      this.#settle(key, error);
    }
    if (this.busy()) setTimeout(() => this.#step(), YIELD_TO_READS_MS);
    else setImmediate(() => this.#step());
  }

  /**
   * A document the index cannot hold (a key too long, parallel arrays) ends the build and drops
   * the index, as createIndexes would have refused it; anything else stops building until the
   * next start, which tries again.
   */
  #failed(coll: Collection, index: Index, error: unknown): void {
    const where = { err: error, ns: coll.ns, index: index.name };
    if (!(error instanceof CommandError)) {
      this.#stopped = true;
      this.logger.error(
        where,
        'embedded database: building an index failed; retried at the next start',
      );
      return;
    }
    this.store.write(() => this.store.collection(coll.db, coll.name)?.dropIndex(index.name));
    this.logger.error(where, 'embedded database: an index could not be built and was dropped');
  }

  /** The next documents' entries, and how far the build now is, in one transaction; true when done. */
  #batch(coll: Collection, index: Index): boolean {
    const building = index.meta.building;
    if (!building) return true;
    const key = `${coll.ns} ${index.name}`;
    if (!this.#started.has(key)) {
      this.#started.set(key, performance.now());
      this.logger.info(
        { ns: coll.ns, index: index.name, done: building.done, total: coll.count() },
        'embedded database: building an index in the background',
      );
    }
    const after = building.after === undefined ? undefined : Buffer.from(building.after, 'hex');
    const until = performance.now() + BATCH_MS;
    let chunk: Array<{ idKey: Buffer; doc: Document }> = [];
    let finished = true;
    for (const { key: entryKey, value } of coll.docs.getRange(after ? { start: after } : {})) {
      const idKey = entryKey as Buffer;
      if (after?.equals(idKey)) continue;
      chunk.push({ idKey: Buffer.from(idKey), doc: decodeDocument(value as Buffer) });
      if (chunk.length < CHUNK) continue;
      this.#add(index, chunk);
      chunk = [];
      if (performance.now() > until) {
        finished = false;
        break;
      }
    }
    this.#add(index, chunk);
    if (finished) {
      delete index.meta.building;
      const seconds = (performance.now() - (this.#started.get(key) ?? 0)) / 1000;
      this.#started.delete(key);
      this.logger.info(
        { ns: coll.ns, index: index.name, documents: building.done, seconds: round(seconds) },
        'embedded database: index built',
      );
    } else if (performance.now() - this.#lastLog > LOG_EVERY_MS) {
      this.#lastLog = performance.now();
      this.logger.info(
        { ns: coll.ns, index: index.name, done: building.done, total: coll.count() },
        'embedded database: index build progress',
      );
    }
    coll.saveMeta();
    return finished;
  }

  #add(index: Index, chunk: Array<{ idKey: Buffer; doc: Document }>) {
    if (chunk.length === 0) return;
    index.addDocuments(chunk);
    const building = index.meta.building;
    if (!building) return;
    building.done += chunk.length;
    building.after = (chunk[chunk.length - 1] as { idKey: Buffer }).idKey.toString('hex');
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
