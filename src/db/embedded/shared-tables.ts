import type { Collection } from './collection.js';
import { decodeDocument } from './documents.js';
import type { IndexSpec } from './index-spec.js';
import type { Tables } from './tables.js';

/**
 * The first LMDB layout kept every collection's documents in one `docs` table and every index's
 * entries in one `entries` table, each key led by a 4-byte number: the collection's or the
 * index's. Its catalog entries name those numbers `prefix`.
 */
interface SharedTableMeta {
  db: string;
  name: string;
  prefix: number;
  indexes: Array<{ spec: IndexSpec; prefix: number }>;
}

/** What the move needs of the store (./store.ts). */
interface Destination {
  readonly tables: Tables;
  write<T>(change: () => T): T;
  ensureCollection(db: string, name: string): Collection;
}

const numberKey = (n: number): Buffer => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

/**
 * Moves a data file of the first layout into a table per collection and per index (indexes
 * rebuilt from the documents), in one transaction: all of it, or nothing. Returns how many
 * collections were moved; 0 when the file has the current layout.
 */
export function splitSharedTables(store: Destination): number {
  const { tables } = store;
  const shared = tables.existing('docs');
  if (!shared) return 0;
  const catalog = [...tables.catalog.getRange({})];
  const metas = catalog.map(({ value }) => decodeDocument(value as Buffer) as SharedTableMeta);
  store.write(() => {
    for (const { key } of catalog) tables.catalog.removeSync(key as Buffer);
    for (const meta of metas) {
      const coll = store.ensureCollection(meta.db, meta.name);
      const range = { start: numberKey(meta.prefix), end: numberKey(meta.prefix + 1) };
      for (const { key, value } of shared.getRange(range))
        coll.docs.putSync((key as Buffer).subarray(4), value as Buffer);
      for (const { spec } of meta.indexes) coll.createIndex(spec);
    }
    shared.dropSync();
    tables.existing('entries')?.dropSync();
  });
  return metas.length;
}
