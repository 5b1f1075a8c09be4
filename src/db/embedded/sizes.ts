import type { Collection } from './collection.js';
import type { Table } from './tables.js';

interface TableStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
}

/** Bytes a table occupies in the data file: all of its pages, and its branch pages. */
function tableBytes(table: Table): { bytes: number; branchBytes: number } {
  const stats = table.getStats() as TableStats;
  const pages = stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;
  return {
    bytes: pages * stats.pageSize,
    branchBytes: Math.max(1, stats.treeBranchPageCount) * stats.pageSize,
  };
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

/** Sizes as collStats reports them: each table's pages, the documents' size from a sample. */
export function collectionSizes(coll: Collection): CollectionSizes {
  const count = coll.count();
  let sampled = 0;
  let sampleBytes = 0;
  for (const { value } of coll.docs.getRange({ limit: 100 })) {
    sampled++;
    sampleBytes += (value as Buffer).length;
  }
  const avgObjSize = sampled > 0 ? Math.round(sampleBytes / sampled) : 0;
  const docs = tableBytes(coll.docs);
  // The documents' table is ordered by `_id`, so it is that index too: its branch pages.
  const indexSizes: Record<string, number> = { _id_: docs.branchBytes };
  for (const index of coll.indexes.values())
    indexSizes[index.name] = tableBytes(index.entries).bytes;
  return {
    count,
    size: count * avgObjSize,
    avgObjSize,
    storageSize: docs.bytes,
    indexSizes,
    totalIndexSize: Object.values(indexSizes).reduce((sum, bytes) => sum + bytes, 0),
  };
}
