import type { Document } from 'bson';
import { CommandError, duplicateKey } from './errors.js';
import { Index, type IndexSpec } from './indexes.js';
import { pathValues, valueKey } from './values.js';

/** Receives every change as a journal record. */
export type Emit = (record: Document) => void;

export const idIndexSpec: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * Documents by `_id` (the `_id` index) plus secondary indexes. Stored documents are never
 * mutated: an update stores a new object, so cursors and readers keep consistent snapshots.
 */
export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, Index>();

  constructor(
    readonly db: string,
    readonly name: string,
    private readonly emit: Emit,
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  insert(doc: Document): void {
    if (this.docs.has(valueKey(doc._id)))
      throw duplicateKey(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    this.put(doc);
  }

  /** Stores `doc`, replacing the document with its `_id`, unless a unique index refuses it. */
  put(doc: Document): void {
    const id = valueKey(doc._id);
    const old = this.docs.get(id);
    const changes = [...this.indexes.values()].map((index) => ({
      index,
      entries: index.entries(doc),
    }));
    for (const { index, entries } of changes) {
      const clash = index.conflict(entries, id);
      if (clash) throw index.duplicateError(this.ns, clash);
    }
    for (const { index, entries } of changes) {
      if (old) index.remove(index.entries(old), id);
      index.add(entries, id);
    }
    this.docs.set(id, doc);
    this.emit({ op: 'put', db: this.db, coll: this.name, doc });
  }

  remove(doc: Document): void {
    const id = valueKey(doc._id);
    for (const index of this.indexes.values()) index.remove(index.entries(doc), id);
    this.docs.delete(id);
    this.emit({ op: 'del', db: this.db, coll: this.name, id: doc._id });
  }

  specs(): IndexSpec[] {
    return [idIndexSpec, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  /** Creates the index unless an identical one exists; false when it already did. */
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
    const index = new Index(spec);
    for (const [id, doc] of this.docs) {
      const entries = index.entries(doc);
      const clash = index.conflict(entries, id);
      if (clash) throw index.duplicateError(this.ns, clash);
      index.add(entries, id);
    }
    this.indexes.set(spec.name, index);
    this.emit({ op: 'createIndex', db: this.db, coll: this.name, spec });
    return true;
  }

  dropIndex(name: string): void {
    if (name === '_id_') throw new CommandError(72, 'InvalidOptions', 'cannot drop _id index');
    if (!this.indexes.delete(name)) {
      throw new CommandError(27, 'IndexNotFound', `index not found with name [${name}]`);
    }
    this.emit({ op: 'dropIndex', db: this.db, coll: this.name, name });
  }

  /** Removes the documents a TTL index has expired by `now`; returns how many. */
  expire(now: number): number {
    let removed = 0;
    for (const { spec, fields } of this.indexes.values()) {
      if (spec.expireAfterSeconds === undefined) continue;
      const cutoff = now - spec.expireAfterSeconds * 1000;
      const path = (fields[0] as string).split('.');
      for (const doc of [...this.docs.values()]) {
        const dates = pathValues(doc, path).filter((v): v is Date => v instanceof Date);
        if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff) {
          this.remove(doc);
          removed++;
        }
      }
    }
    return removed;
  }
}
