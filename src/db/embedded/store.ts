import { randomUUID } from 'node:crypto';
import { Binary, BSON, type Document } from 'bson';
import { ChangeLog } from './change-log.js';
import { type CatalogHooks, Collection, type CollectionMeta } from './collection.js';
import { decodeDocument } from './documents.js';
import { CommandError, invalidNamespace } from './errors.js';
import { splitSharedTables } from './shared-tables.js';
import { Tables } from './tables.js';

function checkDbName(db: string): void {
  if (db === '' || db.length > 63 || /[/\\. "$\0]/.test(db))
    throw invalidNamespace(`Invalid database name: '${db}'`);
}

function checkCollectionName(name: string): void {
  if (typeof name !== 'string' || name === '' || name.includes('$') || name.includes('\0')) {
    throw invalidNamespace(`Invalid collection name: '${name}'`);
  }
}

const catalogKey = (db: string, name: string) => Buffer.from(`${db}.${name}`, 'utf8');

/**
 * Every database and collection, on LMDB. The catalog (collections and their indexes) is
 * mirrored in memory; documents and index entries are read from the tables when needed.
 * Changes happen inside `write`, one LMDB transaction that commits or leaves nothing.
 */
export class Store {
  readonly tables: Tables;
  /** Every committed change to a document, for change streams. */
  readonly changes: ChangeLog;
  /** Collections moved out of the first layout's shared tables when the store opened. */
  readonly split: number;
  #dbs = new Map<string, Map<string, Collection>>();
  #lastTable = 0;
  readonly #hooks: CatalogHooks = {
    save: (meta) => this.tables.catalog.putSync(catalogKey(meta.db, meta.name), encodeMeta(meta)),
    nextTable: () => ++this.#lastTable,
    changed: (change) => this.changes.record(change),
  };

  constructor(dir: string) {
    this.tables = new Tables(dir);
    this.changes = new ChangeLog(this.tables.changes);
    this.split = splitSharedTables(this);
    this.#load();
  }

  /** Runs `change` in one write transaction: all of it is committed, or (if it throws) none. */
  write<T>(change: () => T): T {
    try {
      return this.tables.write(change);
    } catch (error) {
      this.#load();
      this.changes.reload();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.tables.env.close();
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
    const meta: CollectionMeta = {
      db,
      name,
      table: this.#hooks.nextTable(),
      uuid: new Binary(Buffer.from(randomUUID().replaceAll('-', ''), 'hex'), 4),
      indexes: [],
    };
    this.#hooks.save(meta);
    return this.#add(meta);
  }

  createCollection(db: string, name: string): void {
    if (this.collection(db, name))
      throw new CommandError(48, 'NamespaceExists', `Collection ${db}.${name} already exists.`);
    this.ensureCollection(db, name);
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const dropped = this.collection(db, name);
    if (!dropped) return undefined;
    dropped.drop();
    this.tables.catalog.removeSync(catalogKey(db, name));
    this.changes.record({ op: 'drop', db, coll: name });
    this.#dbs.get(db)?.delete(name);
    if (this.#dbs.get(db)?.size === 0) this.#dbs.delete(db);
    return dropped;
  }

  dropDatabase(db: string): void {
    for (const coll of this.collections(db)) this.dropCollection(db, coll.name);
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

  #add(meta: CollectionMeta): Collection {
    const coll = new Collection(meta, this.tables, this.#hooks);
    const collections = this.#dbs.get(meta.db) ?? new Map<string, Collection>();
    this.#dbs.set(meta.db, collections);
    collections.set(meta.name, coll);
    return coll;
  }

  /** (Re)reads the catalog: at start, and after a transaction was rolled back. */
  #load(): void {
    this.#dbs = new Map();
    this.#lastTable = 0;
    for (const { value } of this.tables.catalog.getRange({})) {
      const meta = decodeDocument(value as Buffer) as CollectionMeta;
      this.#add(meta);
      this.#lastTable = Math.max(
        this.#lastTable,
        meta.table,
        ...meta.indexes.map((index) => index.table),
      );
    }
  }
}

const encodeMeta = (meta: CollectionMeta): Buffer => BSON.serialize(meta as Document) as Buffer;
