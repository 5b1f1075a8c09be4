import type { Collection } from './collection.js';
import type { Table } from './tables.js';

interface TableStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
}

/** Bytes a whole table occupies in the data file, and per entry. */
function tableBytes(table: Table): { bytes: number; perEntry: number } {
  const stats = table.getStats() as TableStats;
  const pages = stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;
  const bytes = pages * stats.pageSize;
  return { bytes, perEntry: stats.entryCount > 0 ? bytes / stats.entryCount : 0 };
}

export interface CollectionSizes {
  count: number;
  /** The documents' BSON, estimated from a sample of up to 100. */
  size: number;
  avgObjSize: number;
  /** Its share of the documents table's pages. */
  storageSize: number;
  indexSizes: Record<string, number>;
  totalIndexSize: number;
}

/** Sizes as collStats reports them; LMDB shares its tables, so storage is a pro-rata share. */
export function collectionSizes(coll: Collection): CollectionSizes {
  const count = coll.count();
  let sampled = 0;
  let sampleBytes = 0;
  for (const { value } of coll.tables.docs.getRange({
    start: coll.prefix,
    end: coll.end,
    limit: 100,
  })) {
    sampled++;
    sampleBytes += (value as Buffer).length;
  }
  const avgObjSize = sampled > 0 ? Math.round(sampleBytes / sampled) : 0;
  const docs = tableBytes(coll.tables.docs);
  const entries = tableBytes(coll.tables.entries);
  const idIndexBytes = Math.round(count * 40);
  const indexSizes: Record<string, number> = { _id_: idIndexBytes };
  for (const index of coll.indexes.values()) {
    const keys = coll.tables.entries.getKeysCount({ start: index.prefix, end: index.end });
    indexSizes[index.name] = Math.round(keys * entries.perEntry);
  }
  return {
    count,
    size: count * avgObjSize,
    avgObjSize,
    storageSize: Math.round(count * docs.perEntry),
    indexSizes,
    totalIndexSize: Object.values(indexSizes).reduce((sum, bytes) => sum + bytes, 0),
  };
}
