import type { Document } from 'bson';
import { Collection, type Emit } from './collection.js';
import { CommandError, invalidNamespace } from './errors.js';
import type { IndexSpec } from './indexes.js';
import { valueKey } from './values.js';

function checkDbName(db: string): void {
  if (db === '' || db.length > 63 || /[/\\. "$\0]/.test(db))
    throw invalidNamespace(`Invalid database name: '${db}'`);
}

function checkCollectionName(name: string): void {
  if (typeof name !== 'string' || name === '' || name.includes('$') || name.includes('\0')) {
    throw invalidNamespace(`Invalid collection name: '${name}'`);
  }
}

/**
 * Every database and collection. Each change is emitted as a journal record; `apply` replays
 * such records and `snapshot` describes the whole state as records.
 */
export class Store {
  readonly #dbs = new Map<string, Map<string, Collection>>();
  #journal: Emit | undefined;
  readonly #emit: Emit = (record) => this.#journal?.(record);

  /** Starts journaling (after replay, so replayed records are not journaled again). */
  setJournal(journal: Emit): void {
    this.#journal = journal;
  }

  collection(db: string, name: string): Collection | undefined {
    return this.#dbs.get(db)?.get(name);
  }

  /** The collection, created implicitly (as an insert or createIndexes does) if missing. */
  ensureCollection(db: string, name: string): Collection {
    const existing = this.collection(db, name);
    if (existing) return existing;
    checkDbName(db);
    checkCollectionName(name);
    let collections = this.#dbs.get(db);
    if (!collections) {
      collections = new Map();
      this.#dbs.set(db, collections);
    }
    const created = new Collection(db, name, this.#emit);
    collections.set(name, created);
    return created;
  }

  createCollection(db: string, name: string): void {
    if (this.collection(db, name))
      throw new CommandError(48, 'NamespaceExists', `Collection ${db}.${name} already exists.`);
    this.ensureCollection(db, name);
    this.#emit({ op: 'createColl', db, coll: name });
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const dropped = this.collection(db, name);
    if (!dropped) return undefined;
    this.#dbs.get(db)?.delete(name);
    if (this.#dbs.get(db)?.size === 0) this.#dbs.delete(db);
    this.#emit({ op: 'dropColl', db, coll: name });
    return dropped;
  }

  dropDatabase(db: string): void {
    if (this.#dbs.delete(db)) this.#emit({ op: 'dropDb', db });
  }

  databaseNames(): string[] {
    return [...this.#dbs.keys()];
  }

  collections(db: string): Collection[] {
    return [...(this.#dbs.get(db)?.values() ?? [])];
  }

  /** Applies TTL indexes; returns how many documents expired. */
  expire(now: number): number {
    let removed = 0;
    for (const collections of this.#dbs.values())
      for (const coll of collections.values()) removed += coll.expire(now);
    return removed;
  }

  apply(record: Document): void {
    const { op, db, coll } = record as { op: string; db: string; coll: string };
    switch (op) {
      case 'put':
        this.ensureCollection(db, coll).put(record.doc);
        return;
      case 'del': {
        const target = this.collection(db, coll);
        const doc = target?.docs.get(valueKey(record.id));
        if (doc) target?.remove(doc);
        return;
      }
      case 'createColl':
        return void this.ensureCollection(db, coll);
      case 'createIndex':
        return void this.ensureCollection(db, coll).createIndex(record.spec as IndexSpec);
      case 'dropIndex':
        this.collection(db, coll)?.dropIndex(record.name);
        return;
      case 'dropColl':
        return void this.dropCollection(db, coll);
      case 'dropDb':
        this.dropDatabase(db);
        return;
      default:
        throw new Error(`unknown journal record ${JSON.stringify(op)}`);
    }
  }

  *snapshot(): Generator<Document> {
    for (const [db, collections] of this.#dbs) {
      for (const [name, coll] of collections) {
        yield { op: 'createColl', db, coll: name };
        for (const { spec } of coll.indexes.values())
          yield { op: 'createIndex', db, coll: name, spec };
        for (const doc of coll.docs.values()) yield { op: 'put', db, coll: name, doc };
      }
    }
  }
}
