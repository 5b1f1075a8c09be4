import { BSONRegExp, type Document } from 'bson';
import { Aggregator } from 'mingo';
import type { Collection } from './collection.js';
import { badValue, notSupported } from './errors.js';
import { compileFilter, mingoOptions, viaMingo } from './query.js';
import { isOperatorObject, isPlainObject, valueKey } from './values.js';

export type SortSpec = Record<string, 1 | -1>;

export interface SelectOptions {
  sort?: SortSpec | undefined;
  skip?: number | undefined;
  /** 0 or absent: no limit. */
  limit?: number | undefined;
}

/** The documents a filter selects, and how they were found (for explain). */
export interface Selection {
  docs: Document[];
  plan: { stage: 'COLLSCAN' } | { stage: 'IXSCAN'; indexName: string };
  docsExamined: number;
}

export function parseSort(sort: unknown): SortSpec | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!isPlainObject(sort)) throw badValue('sort must be an object');
  const spec: SortSpec = {};
  for (const [field, direction] of Object.entries(sort)) {
    if (isPlainObject(direction)) throw notSupported(`sorting by ${JSON.stringify(direction)}`);
    if (direction !== 1 && direction !== -1) {
      throw badValue(`$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    }
    spec[field] = direction;
  }
  return Object.keys(spec).length > 0 ? spec : undefined;
}

export function sortDocs(docs: Document[], sort: SortSpec): Document[] {
  return viaMingo(() => new Aggregator([{ $sort: sort }], mingoOptions).run(docs));
}

/**
 * Runs a filter over a collection: through an index when the filter pins every field of one
 * to values (equality or `$in`), else in the order of an index that matches the sort, else
 * over every document.
 */
export function select(
  coll: Collection,
  filter: unknown,
  { sort, skip = 0, limit = 0 }: SelectOptions = {},
): Selection {
  const query = compileFilter(filter);
  const pinned = lookup(coll, equalities(query.spec));
  const ordered = pinned || !sort ? undefined : orderedScan(coll, sort);
  const plan = pinned ?? ordered;
  const candidates = plan ? fetch(coll, plan.ids) : coll.docs.values();
  const stopAt = limit > 0 && (!sort || ordered) ? skip + limit : Infinity;
  const matched: Document[] = [];
  let docsExamined = 0;
  for (const doc of candidates) {
    docsExamined++;
    if (query.test(doc) && matched.push(doc) >= stopAt) break;
  }
  const sorted = sort && !ordered ? sortDocs(matched, sort) : matched;
  return {
    docs: skip > 0 || limit > 0 ? sorted.slice(skip, limit > 0 ? skip + limit : undefined) : sorted,
    plan: plan ? { stage: 'IXSCAN', indexName: plan.indexName } : { stage: 'COLLSCAN' },
    docsExamined,
  };
}

interface IndexPlan {
  indexName: string;
  ids: Iterable<string>;
}

function* fetch(coll: Collection, ids: Iterable<string>): Generator<Document> {
  for (const id of ids) yield coll.docs.get(id) as Document;
}

function lookup(coll: Collection, pinned: Map<string, unknown[]>): IndexPlan | undefined {
  const ids = pinned.get('_id');
  if (ids)
    return { indexName: '_id_', ids: new Set(ids.map(valueKey).filter((id) => coll.docs.has(id))) };
  let best: { indexName: string; ids: Set<string> } | undefined;
  for (const index of coll.indexes.values()) {
    const found = index.lookup(pinned);
    if (found && (!best || found.size < best.ids.size))
      best = { indexName: index.name, ids: found };
  }
  return best;
}

function orderedScan(coll: Collection, sort: SortSpec): IndexPlan | undefined {
  for (const index of coll.indexes.values()) {
    const ids = index.orderFor(sort, coll.docs);
    if (ids) return { indexName: index.name, ids };
  }
  return undefined;
}

/**
 * Fields the filter pins to a finite set of values: `{ f: v }`, `{ f: { $eq: v } }`,
 * `{ f: { $in: [...] } }`, also inside a top-level `$and`. Values an index cannot answer
 * exactly (null, arrays, regexes) leave the field out.
 */
export function equalities(
  filter: Document,
  found = new Map<string, unknown[]>(),
): Map<string, unknown[]> {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const part of condition) if (isPlainObject(part)) equalities(part, found);
      continue;
    }
    if (field.startsWith('$') || found.has(field)) continue;
    const values = !isOperatorObject(condition)
      ? [condition]
      : '$eq' in condition
        ? [condition.$eq]
        : Array.isArray(condition.$in)
          ? (condition.$in as unknown[])
          : undefined;
    if (values?.every(indexable)) found.set(field, values);
  }
  return found;
}

const indexable = (value: unknown): boolean =>
  value !== null &&
  value !== undefined &&
  !Array.isArray(value) &&
  !(value instanceof RegExp) &&
  !(value instanceof BSONRegExp) &&
  !isOperatorObject(value);
