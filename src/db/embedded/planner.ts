import { BSON, type Document } from 'bson';
import { allowsNull, type FieldBounds, fieldBounds, type Interval } from './bounds.js';
import { decodeDocument, defineField } from './documents.js';
import { badValue, CommandError, notSupported } from './errors.js';
import type { Index } from './indexes.js';
import { encodeValue, invert, successor, TYPE } from './keys.js';
import { compileFilter, type Filter } from './query.js';
import { PAUSE, type Slices } from './slices.js';
import type { Table } from './tables.js';
import type { TimeLimit } from './time-limit.js';
import {
  describeSieve,
  describeTrigramScan,
  likelyEnough,
  type TrigramPlan,
  trigramCandidates,
  trigramPlan,
  trigramSieve,
} from './trigram-plan.js';
import { POSTINGS_BUDGET } from './trigram-search.js';
import { isOperatorObject, isPlainObject, pathValues, valueKey } from './values.js';

export type SortSpec = Record<string, 1 | -1>;

const EMPTY = Buffer.alloc(0);

/** What the planner reads of a collection (./collection.ts): its documents and indexes. */
export interface PlannedCollection {
  readonly docs: Table;
  readonly indexes: ReadonlyMap<string, Index>;
  fetchBytes(idKey: Buffer): Buffer | undefined;
  count(): number;
}

export interface SelectOptions {
  sort?: SortSpec | undefined;
  skip?: number | undefined;
  /** 0 or absent: no limit. */
  limit?: number | undefined;
  /** An index name or key pattern the plan must use. */
  hint?: unknown;
  timeLimit?: TimeLimit | undefined;
  /** The scan yields PAUSE at the end of each slice (./slices.ts); only its reader may ask for it. */
  slices?: Slices | undefined;
}

export interface ScanStats {
  keysExamined: number;
  docsExamined: number;
}

/** A query under way: its results (lazily), the chosen plan and what it has examined so far. */
export interface Execution {
  docs: Iterator<Document>;
  plan: Document;
  stats: ScanStats;
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
    defineField(spec, field, direction);
  }
  return Object.keys(spec).length > 0 ? spec : undefined;
}

/**
 * Sorts as MongoDB does: by each field in turn in BSON comparison order; a field holding an
 * array sorts by its smallest element ascending and its largest descending.
 */
export function sortDocs(docs: Document[], sort: SortSpec): Document[] {
  const fields = Object.entries(sort).map(([field, direction]) => ({
    path: field.split('.'),
    direction,
  }));
  const keyed = docs.map((doc) => ({
    doc,
    keys: fields.map(({ path, direction }) => sortKey(pathValues(doc, path), direction)),
  }));
  keyed.sort((a, b) => {
    for (const [i, { direction }] of fields.entries()) {
      const order = Buffer.compare(a.keys[i] as Buffer, b.keys[i] as Buffer) * direction;
      if (order !== 0) return order;
    }
    return 0;
  });
  return keyed.map(({ doc }) => doc);
}

/** An empty array sorts before null. */
const EMPTY_ARRAY_KEY = Buffer.from([TYPE.null - 1]);

function sortKey(values: unknown[], direction: 1 | -1): Buffer {
  let best: Buffer | undefined;
  for (const value of values) {
    const key = encodeValue(value);
    if (!best || Buffer.compare(key, best) * direction < 0) best = key;
  }
  return best ?? EMPTY_ARRAY_KEY;
}

/** How the documents are found: ranges of an index (or of `_id`), or every document. */
interface Access {
  index: Index | undefined;
  /** Keys of the index's table (for `_id`, of the documents' table), sorted and disjoint. */
  ranges: Interval[];
  /** Read the index backwards (its table forwards, when the index is stored mirrored). */
  reverse: boolean;
  /** The order of the scan is the order asked for. */
  sorted: boolean;
  score: number;
  /** Candidates from trigram indexes' postings, in `_id` order, instead of key ranges. */
  trigrams?: TrigramPlan;
  /** Entries whose document lacks a trigram the regex requires are skipped before fetching. */
  sieve?: TrigramPlan;
}

/**
 * Chooses how to run a filter over a collection and starts it: index ranges narrowed by the
 * filter (equality, `$in`, comparisons, anchored regexes) and, where an index has the sort's
 * order, a scan in that order that stops after skip + limit; else a collection scan.
 */
export function execute(
  collection: PlannedCollection,
  filter: unknown,
  { sort, skip = 0, limit = 0, hint, timeLimit, slices }: SelectOptions = {},
): Execution {
  const coll = usable(collection);
  const query = compileFilter(filter);
  const access = choose(coll, query.spec, sort, hint, limit > 0 ? skip + limit : 0);
  const stats: ScanStats = { keysExamined: 0, docsExamined: 0 };
  const found = scan(coll, access, query, stats, timeLimit, slices);
  const keep = limit > 0 ? skip + limit : Number.POSITIVE_INFINITY;
  const ordered = sort && !access.sorted ? sortAll(found, sort, keep, timeLimit) : found;
  return { docs: window(ordered, skip, limit), plan: describe(access, sort), stats };
}

/** The collection as the planner may read it: without the indexes still being built. */
function usable(coll: PlannedCollection): PlannedCollection {
  if ([...coll.indexes.values()].every((index) => index.ready)) return coll;
  return {
    docs: coll.docs,
    indexes: new Map([...coll.indexes].filter(([, index]) => index.ready)),
    fetchBytes: (idKey) => coll.fetchBytes(idKey),
    count: () => coll.count(),
  };
}

/** The whole result as an array. */
export function select(
  coll: PlannedCollection,
  filter: unknown,
  options: SelectOptions = {},
): Document[] {
  const { docs } = execute(coll, filter, options);
  const out: Document[] = [];
  for (let next = docs.next(); !next.done; next = docs.next()) out.push(next.value);
  return out;
}

function* window(docs: Iterable<Document>, skip: number, limit: number): Generator<Document> {
  if (limit === 0 && skip === 0) return yield* docs;
  let seen = 0;
  for (const doc of docs) {
    if (doc === PAUSE) {
      yield doc;
      continue;
    }
    if (seen++ < skip) continue;
    yield doc;
    if (limit > 0 && seen >= skip + limit) return;
  }
}

/** MongoDB's limit on the documents an in-memory sort holds. */
const SORT_MEMORY_BYTES = 100 * 1024 * 1024;

/**
 * Sorts in memory, holding at most `keep` documents when a limit applies (the best ones so
 * far), and refusing past 100 MiB as MongoDB does without `allowDiskUse`.
 */
function* sortAll(
  docs: Iterable<Document>,
  sort: SortSpec,
  keep: number,
  timeLimit: TimeLimit | undefined,
): Generator<Document> {
  let held: Document[] = [];
  let bytes = 0;
  for (const doc of docs) {
    if (doc === PAUSE) {
      yield doc;
      continue;
    }
    held.push(doc);
    if (held.length >= 2 * keep + 100) {
      held = sortDocs(held, sort).slice(0, keep);
      bytes = held.reduce((sum, kept) => sum + BSON.calculateObjectSize(kept), 0);
      continue;
    }
    bytes += BSON.calculateObjectSize(doc);
    if (bytes > SORT_MEMORY_BYTES)
      throw new CommandError(
        292,
        'QueryExceededMemoryLimitNoDiskUseAllowed',
        `Sort exceeded memory limit of ${SORT_MEMORY_BYTES} bytes, but did not opt in to external sorting.`,
      );
  }
  timeLimit?.check();
  yield* sortDocs(held, sort).slice(0, keep);
}

function* scan(
  coll: PlannedCollection,
  access: Access,
  query: Filter,
  stats: ScanStats,
  timeLimit: TimeLimit | undefined,
  slices: Slices | undefined,
): Generator<Document> {
  const { index, trigrams } = access;
  const mayHold = access.sieve && trigramSieve(access.sieve);
  const confirm = (bytes: Buffer) => {
    stats.docsExamined++;
    const doc = decodeDocument(bytes);
    return query.test(doc) ? doc : undefined;
  };
  if (trigrams) {
    // A posting costs a few key steps, much less than reading the clock: the limit is checked
    // once per so many of them.
    let unchecked = 0;
    const examined = () => {
      stats.keysExamined++;
      if (++unchecked < POSTINGS_PER_TIME_CHECK) return;
      unchecked = 0;
      timeLimit?.check();
    };
    for (const idKey of trigramCandidates(trigrams, access.reverse, examined)) {
      if (slices?.due()) yield PAUSE;
      const bytes = coll.fetchBytes(idKey);
      const doc = bytes && confirm(bytes);
      if (doc) yield doc;
    }
    return;
  }
  const reverse = index?.mirrored ? !access.reverse : access.reverse;
  const ranges = reverse ? [...access.ranges].reverse() : access.ranges;
  const table = index ? index.entries : coll.docs;
  const seen = index?.meta.multikey ? new Set<string>() : undefined;
  for (const { start, end } of ranges) {
    // Backwards, LMDB's `start` is the upper end and `end` the lower: flags keep [start, end).
    const range = reverse
      ? {
          ...(end && { start: end }),
          end: start,
          reverse,
          exclusiveStart: true,
          inclusiveEnd: true,
        }
      : { start, ...(end && { end }) };
    // An index's entries have no value: reading their keys alone is cheaper.
    const entries: Iterable<{ key: unknown; value?: unknown } | Buffer> = index
      ? table.getKeys(range)
      : table.getRange(range);
    for (const entry of entries) {
      let key = index ? (entry as Buffer) : (entry as { key: unknown }).key;
      let value = index ? undefined : (entry as { value: unknown }).value;
      timeLimit?.check();
      if (slices?.due()) {
        // Reads between the slices reuse lmdb's buffers: this entry's bytes are kept apart.
        key = Buffer.from(key as Buffer);
        value = index ? value : Buffer.from(value as Buffer);
        yield PAUSE;
      }
      let bytes: Buffer | undefined;
      if (index) {
        stats.keysExamined++;
        const entry = key as Buffer;
        const idStart = index.idKeyStart(entry);
        // Probed where it lies in the entry: most entries of a sieve go no further.
        if (mayHold && !mayHold(entry, idStart)) continue;
        const idKey = Buffer.from(entry.subarray(idStart));
        if (seen) {
          const id = idKey.toString('latin1');
          if (seen.has(id)) continue;
          seen.add(id);
        }
        bytes = coll.fetchBytes(idKey);
        if (!bytes) continue;
      } else {
        if (access.score > 0) stats.keysExamined++;
        if (mayHold && !mayHold(key as Buffer, 0)) continue;
        bytes = value as Buffer;
      }
      const doc = confirm(bytes);
      if (doc) yield doc;
    }
  }
}

/** A trigram search reads the clock for its time limit once per this many postings. */
const POSTINGS_PER_TIME_CHECK = 64;

/** The best access for the filter and sort (or the hinted index). */
function choose(
  coll: PlannedCollection,
  filter: Document,
  sort: SortSpec | undefined,
  hint: unknown,
  wanted: number,
): Access {
  const candidates: Access[] = [];
  const idBounds = fieldBounds(filter, '_id', false);
  const idAccess = idBounds.intervals
    ? { score: 100, ranges: keyRanges([idBounds.intervals], [1]) }
    : { score: 0, ranges: [{ start: EMPTY, end: undefined }] };
  const idOrder = sortDirection(['_id'], [1], [idBounds], sort);
  candidates.push({
    index: undefined,
    ranges: idAccess.ranges,
    reverse: idOrder === -1,
    sorted: sort === undefined || idOrder !== 0,
    score: idAccess.score + (idOrder !== 0 && sort ? 1 : 0),
  });
  // Indexes share fields (when, _id, ...): each field's bounds are worked out once.
  const known = new Map<string, FieldBounds>();
  const boundsOf: BoundsOf = (field, multikey) => {
    const key = `${multikey ? 1 : 0}${field}`;
    const remembered = known.get(key);
    if (remembered) return remembered;
    const bounds = fieldBounds(filter, field, multikey);
    known.set(key, bounds);
    return bounds;
  };
  for (const index of coll.indexes.values()) {
    const access = indexAccess(index, filter, sort, false, boundsOf);
    if (access) candidates.push(access);
  }
  if (hint !== undefined) return hinted(coll, candidates, hint, filter, sort);
  let best = candidates[0] as Access;
  for (const candidate of candidates) if (candidate.score > best.score) best = candidate;
  if (best.score === 0 && best.index) best = candidates[0] as Access;
  // A unique key (or `_id`) pinned by equality finds at most one document: no search.
  const documents = best.score < 10 ? coll.count() : 0;
  const search =
    best.score < 10 ? trigramPlan(coll.indexes.values(), filter, documents) : undefined;
  if (!search) return best;
  // Every required trigram is common (in many documents, or in half of them), or a page of
  // matches is expected among fewer entries of the sort's order than there are matches:
  // reading the index in that order, skipping what lacks one, finds the first matches sooner.
  const worthSieve = (matches: number) =>
    matches > 0 && (wanted * documents) / matches < FETCH_COST * matches;
  // There are no more matches than the estimate: when even that many would not do, no sample.
  const manyMatches = () => worthSieve(search.estimate) && likelyEnough(search, worthSieve);
  const common =
    search.estimate > POSTINGS_BUDGET ||
    search.estimate * 2 >= documents ||
    (search.estimate > FEW_CANDIDATES && wanted > 0 && manyMatches());
  if (common && best.sorted && sort && wanted > 0) return { ...best, sieve: search };
  return trigramAccess(search, sort);
}

/**
 * About how many sort-index entries (each probed for a trigram in a block already read) cost
 * what fetching and testing one candidate of the postings does.
 */
const FETCH_COST = 5;
/** Fetching this many candidates takes a few milliseconds: the postings serve them whatever the sort. */
const FEW_CANDIDATES = 500;

/** Candidates from the postings, in `_id` order: the sort's order when it is `_id` alone. */
function trigramAccess(search: TrigramPlan, sort: SortSpec | undefined): Access {
  const order = sortDirection(['_id'], [1], [], sort);
  return {
    index: undefined,
    ranges: [],
    reverse: order === -1,
    sorted: sort === undefined || order !== 0,
    score: 50,
    trigrams: search,
  };
}

function hinted(
  coll: PlannedCollection,
  candidates: Access[],
  hint: unknown,
  filter: Document,
  sort: SortSpec | undefined,
): Access {
  const matches = (name: string, key: Document) =>
    typeof hint === 'string'
      ? hint === name
      : isPlainObject(hint) && valueKey(hint) === valueKey(key);
  if (isPlainObject(hint) && '$natural' in hint) return { ...(candidates[0] as Access), score: 0 };
  if (matches('_id_', { _id: 1 })) return candidates[0] as Access;
  for (const index of coll.indexes.values()) {
    if (!matches(index.name, index.keyPattern)) continue;
    if (index.trigram) {
      const search = trigramPlan([index], filter);
      return search ? trigramAccess(search, sort) : (candidates[0] as Access);
    }
    return (
      candidates.find((candidate) => candidate.index === index) ??
      indexAccess(index, filter, sort, true) ??
      (candidates[0] as Access)
    );
  }
  throw badValue('hint provided does not correspond to an existing index');
}

/** A field's bounds under the filter (fieldBounds), maybe remembered for the filter. */
type BoundsOf = (field: string, multikey: boolean) => FieldBounds;

function indexAccess(
  index: Index,
  filter: Document,
  sort: SortSpec | undefined,
  forced = false,
  boundsOf: BoundsOf = (field, multikey) => fieldBounds(filter, field, multikey),
): Access | undefined {
  if (index.trigram) return undefined;
  const { multikey } = index.meta;
  const bounds = index.fields.map((field) => boundsOf(field, multikey));
  if (index.spec.sparse && bounds.every(allowsNull)) return undefined;
  if (
    index.spec.partialFilterExpression &&
    !implies(filter, index.spec.partialFilterExpression, bounds, index.fields)
  )
    return undefined;
  let score = 0;
  for (const { intervals } of bounds) {
    if (!intervals) break;
    if (intervals.every((interval) => interval.point)) score += 3;
    else {
      score += 2;
      break;
    }
  }
  const order = multikey ? 0 : sortDirection(index.fields, index.directions, bounds, sort);
  if (score === 0 && order === 0 && !forced) return undefined;
  if (index.spec.unique && score === 3 * index.fields.length) score += 10;
  return {
    index,
    ranges: keyRanges(
      bounds.map((b) => b.intervals),
      index.storedDirections,
    ),
    reverse: order === -1,
    sorted: sort === undefined || order !== 0,
    score: score + (sort && order !== 0 ? 1 : 0),
  };
}

/**
 * 1 when a forward scan of the index gives the sort's order, -1 when a backward one does, 0
 * when neither: the sort must be the index's fields from some position on (all one way or all
 * reversed), every field before it pinned to one value.
 */
function sortDirection(
  fields: string[],
  directions: Array<1 | -1>,
  bounds: FieldBounds[],
  sort: SortSpec | undefined,
): 1 | -1 | 0 {
  if (!sort) return 0;
  const sortFields = Object.entries(sort);
  for (let from = 0; from + sortFields.length <= fields.length; from++) {
    const sign = (sortFields[0]?.[1] ?? 1) * (directions[from] ?? 1);
    const aligned = sortFields.every(
      ([field, direction], i) =>
        fields[from + i] === field && direction * sign === directions[from + i],
    );
    if (aligned) return sign as 1 | -1;
    const pinned = bounds[from]?.intervals;
    if (pinned?.length !== 1 || !pinned[0]?.point) return 0;
  }
  return 0;
}

/**
 * Table key ranges from per-field intervals: single values expand into exact prefixes (up to
 * a bounded number of combinations), the first field with a range ends the key, later fields
 * are left to the filter. `directions`: each field's as stored.
 */
function keyRanges(perField: Array<Interval[] | undefined>, directions: Array<1 | -1>): Interval[] {
  let prefixes = [EMPTY];
  const whole = (p: Buffer): Interval => ({ start: p, end: successor(p) });
  for (const [f, intervals] of perField.entries()) {
    if (!intervals) break;
    const descending = directions[f] === -1;
    const own = descending ? intervals.map(flip).reverse() : intervals;
    if (intervals.every((i) => i.point) && prefixes.length * intervals.length <= 1000) {
      prefixes = prefixes.flatMap((p) => own.map((i) => Buffer.concat([p, i.start])));
      continue;
    }
    return prefixes.flatMap((p) =>
      own.map((i) => ({
        start: Buffer.concat([p, i.start]),
        end: i.end ? Buffer.concat([p, i.end]) : successor(p),
      })),
    );
  }
  return prefixes.map(whole);
}

/** An interval of ascending keys as the interval of the same values in a descending field. */
function flip(interval: Interval): Interval {
  if (interval.point) {
    const start = invert(interval.start);
    return { start, end: successor(start), point: true };
  }
  // Keys starting with the inverted (exclusive) end are the values at that end: skipped.
  const start = interval.end ? (successor(invert(interval.end)) ?? EMPTY) : EMPTY;
  return { start, end: successor(invert(interval.start)) };
}

/**
 * Whether every document the filter selects is in the partial index: each condition of the
 * index's filter appears in the query as such, or is `$exists: true` on a field the query
 * bounds away from null.
 */
function implies(
  filter: Document,
  partial: Document,
  bounds: FieldBounds[],
  fields: string[],
): boolean {
  const conditions = new Map<string, string[]>();
  const collect = (part: Document) => {
    for (const [key, condition] of Object.entries(part)) {
      if (key === '$and' && Array.isArray(condition))
        condition.filter(isPlainObject).forEach(collect);
      else conditions.set(key, [...(conditions.get(key) ?? []), valueKey(condition)]);
    }
  };
  collect(filter);
  const holds = (part: Document): boolean =>
    Object.entries(part).every(([key, condition]) => {
      if (key === '$and' && Array.isArray(condition))
        return condition.filter(isPlainObject).every(holds);
      if (conditions.get(key)?.includes(valueKey(condition))) return true;
      const at = fields.indexOf(key);
      const known = at >= 0 ? bounds[at] : fieldBounds(filter, key, true);
      return (
        isOperatorObject(condition) &&
        Object.keys(condition).length === 1 &&
        condition.$exists === true &&
        known !== undefined &&
        !allowsNull(known)
      );
    });
  return holds(partial);
}

function describe(access: Access, sort: SortSpec | undefined): Document {
  const { index, trigrams, sieve } = access;
  const direction = access.reverse ? 'backward' : 'forward';
  const scan = trigrams
    ? {
        stage: 'FETCH',
        inputStage: describeTrigramScan(trigrams, direction),
      }
    : index
      ? {
          stage: 'FETCH',
          inputStage: {
            stage: 'IXSCAN',
            indexName: index.name,
            keyPattern: index.keyPattern,
            isMultiKey: index.meta.multikey,
            isUnique: index.spec.unique === true,
            isSparse: index.spec.sparse === true,
            isPartial: index.spec.partialFilterExpression !== undefined,
            direction,
            keyRanges: access.ranges.length,
          },
        }
      : access.score > 0 || (access.sorted && sort)
        ? {
            stage: 'FETCH',
            inputStage: {
              stage: 'IXSCAN',
              indexName: '_id_',
              keyPattern: { _id: 1 },
              direction,
              isUnique: true,
              keyRanges: access.ranges.length,
            },
          }
        : { stage: 'COLLSCAN', direction };
  if (sieve) Object.assign(scan, { trigramSieve: describeSieve(sieve) });
  return sort && !access.sorted ? { stage: 'SORT', sortPattern: sort, inputStage: scan } : scan;
}
