import type { Document } from 'bson';
import { decodeDocument } from './documents.js';
import { CommandError, duplicateKey } from './errors.js';
import type { IndexDirection, IndexSpec } from './index-spec.js';
import { encodeValue, invert, MAX_KEY_BYTES, successor, valueEnd } from './keys.js';
import { compileFilter, type Filter } from './query.js';
import type { Table } from './tables.js';
import { POSTING_SIZES, type PostingSizes, TrigramPostings } from './trigram-postings.js';
import { textTrigramBytes, textTrigrams, trigramKey } from './trigrams.js';
import { pathValues, valueKey } from './values.js';

/** What the catalog keeps of a secondary index. */
export interface IndexMeta {
  spec: IndexSpec;
  /** The number of its table. */
  table: number;
  /** Some document filed more than one entry (an array value): no sort order, no range merge. */
  multikey: boolean;
  /** Present while it is built in the background (./index-build.ts); the planner ignores it. */
  building?: IndexBuildProgress;
  /** A trigram index whose table holds posting lists (./trigram-postings.ts), not an entry per trigram. */
  postings?: 1;
}

/** How far a background build has come: every document up to `after` has its entries. */
export interface IndexBuildProgress {
  /** The `_id` key (hex) of the last document added; absent before the first batch. */
  after?: string;
  /** Documents added so far. */
  done: number;
}

/** One key of a document in an index: the encoded tuple and the values it holds. */
export interface IndexKey {
  bytes: Buffer;
  values: unknown[];
}

/** A trigram as a key (./trigram-postings.ts keeps postings by the trigram itself: bytes on demand). */
class TrigramKey implements IndexKey {
  readonly values: string[];
  constructor(trigram: string) {
    this.values = [trigram];
  }
  get bytes(): Buffer {
    return trigramKey(this.values[0] as string);
  }
}

/** An entry's value: its key already ends with the `_id` key. */
const EMPTY = Buffer.alloc(0);

/** A trigram's UTF-8 takes 12 bytes at most (three code points). */
const MAX_TRIGRAM_BYTES = 12;

const keyTooLong = (name: string) =>
  new CommandError(17280, 'KeyTooLong', `index key too large to index for index ${name}`);

/**
 * A secondary index: a table of its own, one key per entry. An index whose first field is
 * descending is stored mirrored (every direction flipped, so `{when: -1, _id: -1}` is kept as
 * `{when: 1, _id: 1}`) and read backwards: the same order, but entries arriving in time
 * order (each newer than the last) are then appended, which fills whole pages where prepending
 * them would leave every page half empty.
 */
export class Index {
  readonly fields: string[];
  /** Stored mirrored: a forward read of the table is a backward read of the index. */
  readonly mirrored: boolean;
  /** Each field's direction in the table (the spec's, flipped when mirrored). */
  readonly storedDirections: Array<1 | -1>;
  /** A trigram index (./trigrams.ts): one entry per folded trigram of the field's strings. */
  readonly trigram: boolean;
  /** A trigram index's posting lists (./trigram-postings.ts), which its table holds. */
  readonly postings: TrigramPostings | undefined;
  readonly #paths: string[][];
  readonly #directions: Array<1 | -1>;
  readonly #filter: Filter | undefined;

  /** `docs`: the collection's documents, which a trigram index reads new ones from (./unfiled-documents.ts). */
  constructor(
    readonly meta: IndexMeta,
    readonly entries: Table,
    postingSizes: PostingSizes = POSTING_SIZES,
    docs?: Table,
  ) {
    this.fields = Object.keys(meta.spec.key);
    this.#paths = this.fields.map((field) => field.split('.'));
    this.trigram = meta.spec.key[this.fields[0] as string] === 'trigram';
    const source = docs && { docs, trigramsOf: (stored: Buffer) => this.#trigramBytes(stored) };
    this.postings = this.trigram ? new TrigramPostings(entries, postingSizes, source) : undefined;
    // A new trigram index (its table still empty) is kept in the posting-list layout.
    if (this.trigram && meta.postings === undefined && entries.getKeysCount({ limit: 1 }) === 0)
      meta.postings = 1;
    this.#directions = this.fields.map((field) => (meta.spec.key[field] === -1 ? -1 : 1));
    this.mirrored = this.#directions[0] === -1;
    this.storedDirections = this.#directions.map((d) => (this.mirrored ? -d : d) as 1 | -1);
    this.#filter = meta.spec.partialFilterExpression
      ? compileFilter(meta.spec.partialFilterExpression)
      : undefined;
  }

  get spec(): IndexSpec {
    return this.meta.spec;
  }

  get name(): string {
    return this.meta.spec.name;
  }

  get keyPattern(): Record<string, IndexDirection> {
    return this.meta.spec.key;
  }

  get directions(): Array<1 | -1> {
    return this.#directions;
  }

  /** Every document has its entries: the planner may use it. */
  get ready(): boolean {
    return this.meta.building === undefined;
  }

  /**
   * Files the entries of documents a background build reaches (./index-build.ts). Writes keep
   * the documents it has passed up to date and leave the others to it (`write`); filing a
   * document's entries again leaves the index as it was.
   */
  addDocuments(entries: ReadonlyArray<{ idKey: Buffer; doc: Document }>): void {
    if (this.postings) {
      const batch = entries.map(({ idKey, doc }) => {
        const keys = this.keys(doc);
        this.#checkTrigramKeys(keys, idKey);
        return { idKey, trigrams: keys.map((key) => key.values[0] as string) };
      });
      this.postings.addDocuments(batch);
      return;
    }
    for (const { idKey, doc } of entries) {
      const keys = this.keys(doc);
      this.#write([], keys, idKey);
      if (keys.length > 1) this.meta.multikey = true;
    }
  }

  /**
   * A trigram index written by a release before posting lists (an entry per trigram and
   * document): its table must be emptied (`restart`) and built again.
   */
  get outdated(): boolean {
    return this.trigram && this.meta.postings === undefined;
  }

  /** Empties the table for a build from scratch, in the current layout (inside a write). */
  restart(): void {
    this.entries.clearSync();
    if (this.trigram) this.meta.postings = 1;
  }

  /** A stored document's trigrams as one run of bytes (./trigrams.ts, textTrigramBytes). */
  #trigramBytes(stored: Buffer): Buffer {
    const doc = decodeDocument(stored);
    if (this.#filter && !this.#filter.test(doc)) return Buffer.alloc(0);
    return textTrigramBytes(pathValues(doc, this.#paths[0] as string[]));
  }

  /**
   * A new document (before it is stored): true when this index reads it from the collection
   * later, so it has nothing to write now (./unfiled-documents.ts). One whose `_id` key is near
   * the key limit is written now, where a key too long is refused (#checkTrigramKeys).
   */
  filesLater(idKey: Buffer): boolean {
    if (idKey.length + MAX_TRIGRAM_BYTES > MAX_KEY_BYTES) return false;
    return this.ready && this.postings?.takesLater(idKey) === true;
  }

  /** The keys a document files under; none when a sparse or partial index leaves it out. */
  keys(doc: Document): IndexKey[] {
    if (this.#filter && !this.#filter.test(doc)) return [];
    if (this.trigram)
      return [...textTrigrams(pathValues(doc, this.#paths[0] as string[]))].map(
        (trigram) => new TrigramKey(trigram),
      );
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
    const keys = new Map<string, IndexKey>();
    for (let i = 0; i < width; i++) {
      const values = perField.map((vs) => (vs.length > 1 ? vs[i] : vs[0]) ?? null);
      const bytes = Buffer.concat(
        values.map((value, f) => {
          const encoded = encodeValue(value);
          return this.storedDirections[f] === -1 ? invert(encoded) : encoded;
        }),
      );
      keys.set(bytes.toString('latin1'), { bytes, values });
    }
    return [...keys.values()];
  }

  /**
   * A trigram index keeps its entries when an update leaves its field as it was (a counter
   * of a long KidLisp source, say), without folding the text twice to find that out.
   */
  unchangedBy(old: Document, doc: Document): boolean {
    if (!this.trigram) return false;
    const path = this.#paths[0] as string[];
    const before = pathValues(old, path);
    const after = pathValues(doc, path);
    return (
      before.length === after.length && before.every((v, i) => valueKey(v) === valueKey(after[i]))
    );
  }

  /** The table key of one entry. */
  entryKey(key: IndexKey, idKey: Buffer): Buffer {
    const bytes = Buffer.concat([key.bytes, idKey]);
    if (bytes.length > MAX_KEY_BYTES) throw keyTooLong(this.name);
    return bytes;
  }

  /** The key that another document already holds in this unique index, if any. */
  conflict(keys: IndexKey[], idKey: Buffer): IndexKey | undefined {
    if (!this.spec.unique) return undefined;
    return keys.find((key) => {
      const start = key.bytes;
      const end = successor(start);
      for (const entry of this.entries.getKeys({ start, ...(end && { end }) }))
        if (!this.idKeyOf(entry as Buffer).equals(idKey)) return true;
      return false;
    });
  }

  duplicateError(ns: string, key: IndexKey) {
    const keyValue = Object.fromEntries(this.fields.map((field, i) => [field, key.values[i]]));
    return duplicateKey(ns, this.name, this.keyPattern, keyValue);
  }

  /**
   * Replaces the entries of one document (`before` to `after`), writing only what changed. A
   * document a background build has not reached yet has no entries: it is left to the build,
   * which files it as it then is (an update there cannot assume `before` is filed).
   */
  write(before: IndexKey[], after: IndexKey[], idKey: Buffer, removed = false): void {
    const building = this.meta.building;
    if (building && (building.after === undefined || idKey.toString('hex') > building.after))
      return;
    this.#write(before, after, idKey, removed);
  }

  #write(before: IndexKey[], after: IndexKey[], idKey: Buffer, removed = false): void {
    if (this.postings) {
      this.#checkTrigramKeys(after, idKey);
      const trigramsOf = (keys: IndexKey[]) => keys.map((key) => key.values[0] as string);
      this.postings.write(trigramsOf(before), trigramsOf(after), idKey, removed);
      return;
    }
    const kept = new Set(after.map((key) => key.bytes.toString('latin1')));
    const had = new Set(before.map((key) => key.bytes.toString('latin1')));
    for (const key of before)
      if (!kept.has(key.bytes.toString('latin1')))
        this.entries.removeSync(this.entryKey(key, idKey));
    for (const key of after)
      if (!had.has(key.bytes.toString('latin1')))
        this.entries.putSync(this.entryKey(key, idKey), EMPTY);
  }

  /** A trigram and the `_id` key make a block's key (./trigram-postings.ts): LMDB's limit holds. */
  #checkTrigramKeys(keys: IndexKey[], idKey: Buffer): void {
    // Only an `_id` key near the limit needs a closer look.
    if (idKey.length + MAX_TRIGRAM_BYTES <= MAX_KEY_BYTES) return;
    const longest = Math.max(0, ...keys.map((key) => Buffer.byteLength(key.values[0] as string)));
    if (keys.length > 0 && longest + idKey.length > MAX_KEY_BYTES) throw keyTooLong(this.name);
  }

  /**
   * The `_id` key at the end of an entry's key, after the indexed values: a copy, since lmdb
   * reuses the memory of the keys it reads, and this key is looked up next.
   */
  idKeyOf(entry: Buffer): Buffer {
    return Buffer.from(entry.subarray(this.idKeyStart(entry)));
  }

  /** Where the `_id` key starts in an entry's key. */
  idKeyStart(entry: Buffer): number {
    let at = 0;
    for (const direction of this.storedDirections) at = valueEnd(entry, at, direction === -1);
    return at;
  }
}
