import type { Document } from 'bson';
import { compare, setValue } from 'mingo/util';
import { CommandError, duplicateKey, failedToParse, notSupported } from './errors.js';
import { compileFilter, type Filter } from './query.js';
import { isPlainObject, pathValues, tupleKey } from './values.js';

export interface IndexSpec {
  v: 2;
  key: Record<string, 1 | -1>;
  name: string;
  unique?: true;
  sparse?: true;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
}

export interface IndexEntry {
  key: string;
  values: unknown[];
}

const ignoredOptions = new Set(['v', 'background', 'ns']);
const invalidSpecOption = (field: string) =>
  new CommandError(
    197,
    'InvalidIndexSpecificationOption',
    `The field '${field}' is not valid for an index specification`,
  );

/** Validates a `createIndexes` entry into the stored spec; refuses what this server cannot honour. */
export function parseIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
    throw failedToParse('an index specification needs a non-empty key document');
  }
  const key: Record<string, 1 | -1> = {};
  for (const [field, direction] of Object.entries(raw.key)) {
    if (direction !== 1 && direction !== -1)
      throw notSupported(`index type ${JSON.stringify(direction)} on '${field}'`);
    key[field] = direction;
  }
  const name =
    raw.name ??
    Object.entries(key)
      .map(([f, d]) => `${f}_${d}`)
      .join('_');
  if (typeof name !== 'string' || name === '')
    throw failedToParse('index name must be a non-empty string');
  const options: Partial<IndexSpec> = {};
  for (const [option, value] of Object.entries(raw)) {
    if (option === 'key' || option === 'name' || ignoredOptions.has(option)) continue;
    if (option === 'unique' || option === 'sparse') {
      if (value) options[option] = true;
    } else if (option === 'partialFilterExpression' && isPlainObject(value)) {
      options.partialFilterExpression = value;
    } else if (option === 'expireAfterSeconds' && typeof value === 'number' && value >= 0) {
      if (Object.keys(key).length !== 1) throw notSupported('a TTL index on more than one field');
      options.expireAfterSeconds = value;
    } else if (option === 'collation' || option === 'hidden' || option === 'wildcardProjection') {
      throw notSupported(`index option '${option}'`);
    } else {
      throw invalidSpecOption(option);
    }
  }
  // A fixed field order, so that equal specifications compare equal.
  const { unique, sparse, partialFilterExpression, expireAfterSeconds } = options;
  const spec: IndexSpec = {
    v: 2,
    key,
    name,
    ...(unique && { unique }),
    ...(sparse && { sparse }),
    ...(partialFilterExpression && { partialFilterExpression }),
    ...(expireAfterSeconds !== undefined && { expireAfterSeconds }),
  };
  if (name === '_id_' && (Object.keys(key).join() !== '_id' || spec.unique || spec.sparse)) {
    throw new CommandError(
      197,
      'InvalidIndexSpecificationOption',
      "the index name '_id_' is reserved for the _id index",
    );
  }
  return spec;
}

/** A secondary index: a hash map from key to document ids, with its sort order built on demand. */
export class Index {
  readonly fields: string[];
  readonly #paths: string[][];
  readonly #filter: Filter | undefined;
  readonly #map = new Map<string, Set<string>>();
  /** Documents whose indexed fields hold arrays: such an index cannot give a sort order. */
  #multikey = 0;
  #ordered: SortedIds | undefined;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.#paths = this.fields.map((field) => field.split('.'));
    this.#filter = spec.partialFilterExpression
      ? compileFilter(spec.partialFilterExpression)
      : undefined;
  }

  get name(): string {
    return this.spec.name;
  }

  get keyPattern(): Record<string, 1 | -1> {
    return this.spec.key;
  }

  /** The keys a document files under; none when a sparse or partial index leaves it out. */
  entries(doc: Document): IndexEntry[] {
    if (this.#filter && !this.#filter.test(doc)) return [];
    const perField = this.#paths.map((path) => {
      const found = pathValues(doc, path);
      return found.length === 0 ? [undefined] : found;
    });
    if (this.spec.sparse && perField.every((values) => values.every((v) => v === undefined)))
      return [];
    const arrays = perField.filter((values) => values.length > 1);
    if (arrays.length > 1) {
      throw new CommandError(
        171,
        'CannotIndexParallelArrays',
        `cannot index parallel arrays [${this.fields.join('] [')}]`,
      );
    }
    const width = arrays[0]?.length ?? 1;
    const entries = new Map<string, IndexEntry>();
    for (let i = 0; i < width; i++) {
      const values = perField.map((vs) => (vs.length > 1 ? vs[i] : vs[0]) ?? null);
      entries.set(tupleKey(values), { key: tupleKey(values), values });
    }
    return [...entries.values()];
  }

  /** The entry that another document already holds in this unique index, if any. */
  conflict(entries: IndexEntry[], id: string): IndexEntry | undefined {
    if (!this.spec.unique) return undefined;
    return entries.find(({ key }) => [...(this.#map.get(key) ?? [])].some((other) => other !== id));
  }

  duplicateError(ns: string, entry: IndexEntry) {
    const keyValue = Object.fromEntries(this.fields.map((field, i) => [field, entry.values[i]]));
    return duplicateKey(ns, this.name, this.keyPattern, keyValue);
  }

  add(entries: IndexEntry[], id: string): void {
    for (const { key } of entries) {
      let ids = this.#map.get(key);
      if (!ids) {
        ids = new Set();
        this.#map.set(key, ids);
      }
      ids.add(id);
    }
    if (entries.length > 1) this.#multikey++;
    if (this.#ordered && entries.length === 1)
      this.#ordered.insert(id, (entries[0] as IndexEntry).values);
    else this.#ordered = undefined;
  }

  remove(entries: IndexEntry[], id: string): void {
    for (const { key } of entries) {
      const ids = this.#map.get(key);
      ids?.delete(id);
      if (ids?.size === 0) this.#map.delete(key);
    }
    if (entries.length > 1) this.#multikey--;
    if (this.#ordered && entries.length === 1) this.#ordered.delete(id);
    else this.#ordered = undefined;
  }

  ids(key: string): Iterable<string> {
    return this.#map.get(key) ?? [];
  }

  /**
   * The ids filed under any combination of the given field values, or undefined when this
   * index cannot answer (a field without values, or a partial filter the values do not imply).
   */
  lookup(equalities: Map<string, unknown[]>): Set<string> | undefined {
    const lists = this.fields.map((field) => equalities.get(field));
    if (lists.some((list) => list === undefined)) return undefined;
    let tuples: unknown[][] = [[]];
    for (const list of lists as unknown[][])
      tuples = tuples.flatMap((tuple) => list.map((v) => [...tuple, v]));
    if (tuples.length > 1000) return undefined;
    if (this.#filter) {
      const filter = this.#filter;
      const implied = tuples.every((tuple) => filter.test(this.#sample(tuple)));
      const filterFields = Object.keys(this.#filter.spec);
      if (!implied || !filterFields.every((field) => this.fields.includes(field))) return undefined;
    }
    const ids = new Set<string>();
    for (const tuple of tuples) for (const id of this.ids(tupleKey(tuple))) ids.add(id);
    return ids;
  }

  /**
   * Document ids in the order of `sort`, when `sort` is a prefix of this index's key pattern
   * (or of its reverse) and every document is filed once; otherwise undefined.
   */
  orderFor(
    sort: Record<string, 1 | -1>,
    docs: Map<string, Document>,
  ): Iterable<string> | undefined {
    const sortFields = Object.entries(sort);
    if (
      this.spec.sparse ||
      this.#filter ||
      this.#multikey > 0 ||
      sortFields.length > this.fields.length
    )
      return undefined;
    const sign = sortFields[0]?.[1] === this.keyPattern[this.fields[0] as string] ? 1 : -1;
    if (
      !sortFields.every(
        ([field, dir], i) => field === this.fields[i] && dir * sign === this.keyPattern[field],
      )
    ) {
      return undefined;
    }
    if (!this.#ordered) {
      this.#ordered = new SortedIds(this.fields.map((field) => this.keyPattern[field] as 1 | -1));
      for (const [id, doc] of docs)
        this.#ordered.insert(id, (this.entries(doc)[0] as IndexEntry).values);
    }
    return sign === 1 ? this.#ordered.ids : this.#ordered.reversed();
  }

  #sample(tuple: unknown[]): Document {
    const doc: Document = {};
    this.fields.forEach((field, i) => {
      setValue(doc, field, tuple[i]);
    });
    return doc;
  }
}

/** Ids kept in key order, built the first time a sort asks for it and maintained from then on. */
class SortedIds {
  readonly ids: string[] = [];
  readonly #values = new Map<string, unknown[]>();

  constructor(readonly directions: Array<1 | -1>) {}

  insert(id: string, values: unknown[]): void {
    this.#values.set(id, values);
    this.ids.splice(
      this.#bound(values, (order) => order <= 0),
      0,
      id,
    );
  }

  *reversed(): Generator<string> {
    for (let i = this.ids.length - 1; i >= 0; i--) yield this.ids[i] as string;
  }

  delete(id: string): void {
    const values = this.#values.get(id);
    if (!values) return;
    for (let i = this.#bound(values, (order) => order < 0); i < this.ids.length; i++) {
      if (this.ids[i] === id) {
        this.ids.splice(i, 1);
        break;
      }
    }
    this.#values.delete(id);
  }

  /** The first position whose key does not satisfy `before(compare(key, values))`. */
  #bound(values: unknown[], before: (order: number) => boolean): number {
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(this.#compare(this.#values.get(this.ids[mid] as string) as unknown[], values)))
        low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #compare(a: unknown[], b: unknown[]): number {
    for (let i = 0; i < this.directions.length; i++) {
      const order = compare(a[i], b[i]) * (this.directions[i] as number);
      if (order !== 0) return order;
    }
    return 0;
  }
}
