import { type Binary, BSON, type Document } from 'bson';
import type { Change } from './change-log.js';
import { checkStoredDepth } from './depth.js';
import { decodeDocument, defineField } from './documents.js';
import { CommandError, duplicateKey } from './errors.js';
import type { IndexSpec } from './index-spec.js';
import { Index, type IndexKey, type IndexMeta } from './indexes.js';
import { encodeValue, MAX_KEY_BYTES } from './keys.js';
import { select } from './planner.js';
import { storedEntries, type Table, type Tables } from './tables.js';
import { isPlainObject, valueKey } from './values.js';

export const idIndexSpec: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** What the catalog keeps of a collection. */
export interface CollectionMeta {
  db: string;
  name: string;
  /** The number of its documents' table. */
  table: number;
  uuid: Binary;
  indexes: IndexMeta[];
}

/**
 * The catalog's hooks: saving this collection's description, numbering a new index's table,
 * logging a change to a document (for change streams).
 */
export interface CatalogHooks {
  save(meta: CollectionMeta): void;
  nextTable(): number;
  changed(change: Omit<Change, 'seq' | 'wall'>): void;
}

/**
 * Documents by `_id` in a table of their own, plus a table per secondary index.
 * Every method that writes must run inside the store's write transaction.
 */
export class Collection {
  readonly indexes = new Map<string, Index>();
  /** Its documents as BSON, by `_id` key. */
  readonly docs: Table;
  #count: number | undefined;

  constructor(
    readonly meta: CollectionMeta,
    private readonly tables: Tables,
    private readonly catalog: CatalogHooks,
  ) {
    this.docs = tables.docs(meta.table);
    for (const index of meta.indexes)
      this.indexes.set(
        index.spec.name,
        new Index(index, tables.index(index.table), undefined, this.docs),
      );
  }

  get db(): string {
    return this.meta.db;
  }

  get name(): string {
    return this.meta.name;
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** The `_id` key that files a document. */
  idKey(id: unknown): Buffer {
    const key = encodeValue(id);
    if (key.length > MAX_KEY_BYTES)
      throw new CommandError(17280, 'KeyTooLong', '_id too large to index');
    return key;
  }

  /** The stored document filed under the `_id` key, if any. */
  fetch(idKey: Buffer): Document | undefined {
    const bytes = this.fetchBytes(idKey);
    return bytes ? decodeDocument(bytes) : undefined;
  }

  /** Its BSON, valid only until the next read of the table. */
  fetchBytes(idKey: Buffer): Buffer | undefined {
    return this.docs.getBinaryFast(idKey);
  }

  /**
   * Its number of documents, exact: LMDB keeps each table's entry count in its root (one read,
   * where counting the keys walks every page: 79 ms at 1M documents), then kept by the writes.
   */
  count(): number {
    this.#count ??= storedEntries(this.docs);
    return this.#count;
  }

  insert(doc: Document): void {
    const idKey = this.idKey(doc._id);
    if (this.docs.doesExist(idKey))
      throw duplicateKey(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    this.#store(doc, idKey, undefined);
    if (this.#count !== undefined) this.#count++;
    this.catalog.changed({ op: 'insert', db: this.db, coll: this.name, id: doc._id, doc });
  }

  /**
   * Replaces the stored document `old` (same `_id`) by `doc`, unless a unique index refuses it.
   * `op`: what the change log calls it (an update by operators, or a replacement document).
   */
  replace(old: Document, doc: Document, op: 'update' | 'replace' = 'update'): void {
    this.#store(doc, this.idKey(doc._id), old);
    const change = { op, db: this.db, coll: this.name, id: doc._id };
    this.catalog.changed(
      op === 'replace' ? { ...change, doc } : { ...change, ...difference(old, doc) },
    );
  }

  remove(doc: Document): void {
    const idKey = this.idKey(doc._id);
    for (const index of this.indexes.values()) index.write(index.keys(doc), [], idKey, true);
    if (this.docs.removeSync(idKey) && this.#count !== undefined) this.#count--;
    this.catalog.changed({ op: 'delete', db: this.db, coll: this.name, id: doc._id });
  }

  #store(doc: Document, idKey: Buffer, old: Document | undefined): void {
    checkStoredDepth(doc, old ? 'update' : 'insert');
    const changes = [...this.indexes.values()]
      .filter((index) => (old ? !index.unchangedBy(old, doc) : !index.filesLater(idKey)))
      .map((index) => ({
        index,
        before: old ? index.keys(old) : ([] as IndexKey[]),
        after: index.keys(doc),
      }));
    for (const { index, after } of changes) {
      const clash = index.conflict(after, idKey);
      if (clash) throw index.duplicateError(this.ns, clash);
    }
    let catalogChanged = false;
    for (const { index, before, after } of changes) {
      index.write(before, after, idKey);
      if (after.length > 1 && !index.meta.multikey) {
        index.meta.multikey = true;
        catalogChanged = true;
      }
    }
    if (catalogChanged) this.catalog.save(this.meta);
    this.docs.putSync(idKey, BSON.serialize(doc) as Buffer);
  }

  /** Saves its description (a background index build's progress, ./index-build.ts). */
  saveMeta(): void {
    this.catalog.save(this.meta);
  }

  specs(): IndexSpec[] {
    return [idIndexSpec, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  /** Every stored document in `_id` order, read lazily. */
  *scan(): Generator<Document> {
    for (const { value } of this.docs.getRange({})) yield decodeDocument(value as Buffer);
  }

  /**
   * Creates the index unless an identical one exists; false when it already did. A unique index,
   * or any on an empty collection, is complete on return; another is built in the background
   * (./index-build.ts): writes maintain it from now on, the planner ignores it until done.
   */
  createIndex(spec: IndexSpec): boolean {
    const same = this.specs().find(
      (s) => s.name === spec.name || valueKey(s.key) === valueKey(spec.key),
    );
    if (same) {
      if (valueKey(same) === valueKey(spec)) return false;
      if (same.name === spec.name) {
        const message = `An existing index has the same name as the requested index but another key or options: ${spec.name}`;
        throw new CommandError(86, 'IndexKeySpecsConflict', message);
      }
      throw new CommandError(
        85,
        'IndexOptionsConflict',
        `Index already exists with a different name: ${same.name}`,
      );
    }
    const meta: IndexMeta = { spec, table: this.catalog.nextTable(), multikey: false };
    const index = new Index(meta, this.tables.index(meta.table), undefined, this.docs);
    if (!spec.unique && this.count() > 0) meta.building = { done: 0 };
    else this.#fill(index);
    this.indexes.set(spec.name, index);
    this.meta.indexes.push(meta);
    this.catalog.save(this.meta);
    return true;
  }

  /** Files every document's entries now, refusing a duplicate of a unique key. */
  #fill(index: Index): void {
    for (const doc of this.scan()) {
      const keys = index.keys(doc);
      const idKey = this.idKey(doc._id);
      const clash = index.conflict(keys, idKey);
      if (clash) throw index.duplicateError(this.ns, clash);
      index.write([], keys, idKey);
      if (keys.length > 1) index.meta.multikey = true;
    }
  }

  dropIndex(name: string): void {
    if (name === '_id_') throw new CommandError(72, 'InvalidOptions', 'cannot drop _id index');
    const index = this.indexes.get(name);
    if (!index) throw new CommandError(27, 'IndexNotFound', `index not found with name [${name}]`);
    this.tables.dropIndex(index.meta.table);
    this.indexes.delete(name);
    this.meta.indexes = this.meta.indexes.filter((meta) => meta.spec.name !== name);
    this.catalog.save(this.meta);
  }

  /** Removes its documents' and its indexes' tables (the catalog entry is the store's). */
  drop(): void {
    for (const index of this.indexes.values()) this.tables.dropIndex(index.meta.table);
    this.tables.dropDocs(this.meta.table);
    this.#count = 0;
  }

  /** Removes the documents a TTL index has expired by `now` (found through it); returns how many. */
  expire(now: number): number {
    let removed = 0;
    for (const index of this.indexes.values()) {
      const { spec } = index;
      if (spec.expireAfterSeconds === undefined || !index.ready) continue;
      const cutoff = new Date(now - spec.expireAfterSeconds * 1000);
      const expired = select(
        this,
        { [index.fields[0] as string]: { $lte: cutoff } },
        { hint: spec.name },
      );
      for (const doc of expired) this.remove(doc);
      removed += expired.length;
    }
    return removed;
  }
}

const sameValue = (a: unknown, b: unknown): boolean =>
  Buffer.compare(BSON.serialize({ v: a }), BSON.serialize({ v: b })) === 0;

/**
 * An update's `updateDescription`, as mongod reports it: the fields set or changed and those
 * removed, by dotted path into embedded documents that existed before and after (a new or
 * replaced embedded document, or an array, is reported whole).
 */
function difference(
  old: Document,
  doc: Document,
  prefix = '',
  into = { updated: {} as Document, removed: [] as string[] },
): { updated: Document; removed: string[] } {
  for (const [field, value] of Object.entries(doc)) {
    const before = old[field];
    if (Object.hasOwn(old, field) && sameValue(before, value)) continue;
    if (Object.hasOwn(old, field) && isPlainObject(before) && isPlainObject(value))
      difference(before, value, `${prefix}${field}.`, into);
    else defineField(into.updated, `${prefix}${field}`, value);
  }
  for (const field of Object.keys(old))
    if (!Object.hasOwn(doc, field)) into.removed.push(`${prefix}${field}`);
  return into;
}
