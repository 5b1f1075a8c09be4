import { compareBytes } from './posting-keys.js';
import type { Table } from './tables.js';

/**
 * Where a trigram index finds the documents it files late: the collection's documents table
 * (by `_id` key), and the trigrams of a stored document (BSON) as a pending entry holds them
 * (UTF-8, three code points each, each once; none when the index leaves the document out).
 */
export interface DocumentSource {
  docs: Table;
  trigramsOf(stored: Buffer): Buffer;
}

/** The index table's key of the mark (a trigram's UTF-8 never starts with 0xF5 or above). */
const MARK = Buffer.from([0xfd]);

/** The first key after `key`. */
const after = (key: Buffer) => Buffer.concat([key, Buffer.from([0])]);

/**
 * The documents of a trigram index's collection after its mark, an `_id` key kept in the
 * index's table (./trigram-postings.ts). A document after the mark has no pending entry, and
 * no posting in a block but those a fold cut short filed. The index reads its trigrams from
 * the collection when a fold or a search needs them, so inserting a new document (an `_id`
 * after every other, as ObjectIds mostly are) costs the index nothing. Every document up to the
 * mark has its trigrams in the blocks or in a pending entry. A fold that files the documents
 * after the mark moves the mark to the last of them.
 *
 * An index has no mark until its first insert once it is complete (built, or an earlier
 * release's): every document is filed then, so the mark starts at the last one.
 */
export class UnfiledDocuments {
  /** Undefined: not read yet; null: none yet. */
  #mark: Buffer | null | undefined;
  #count: number | undefined;
  /** The last `_id` key of the collection, as far as this writer knows (null: none). */
  #newest: Buffer | null | undefined;

  constructor(
    private readonly index: Table,
    private readonly source: DocumentSource,
  ) {}

  get mark(): Buffer | undefined {
    if (this.#mark === undefined) {
      const stored = this.index.getBinary(MARK);
      this.#mark = stored ? Buffer.from(stored) : null;
    }
    return this.#mark ?? undefined;
  }

  /** Whether the document comes after the mark (its trigrams are read from the collection). */
  holds(idKey: Buffer): boolean {
    const mark = this.mark;
    return mark !== undefined && compareBytes(idKey, 0, idKey.length, mark, 0, mark.length) > 0;
  }

  /** How many documents come after the mark. */
  count(): number {
    const mark = this.mark;
    this.#count ??= mark ? this.source.docs.getKeysCount({ start: after(mark) }) : 0;
    return this.#count;
  }

  /**
   * A new document (inside the write that stores it): whether it comes after the mark, set
   * first if there is none; then counted. `appended`: it also comes after every document stored.
   */
  admit(idKey: Buffer): { appended: boolean } | undefined {
    if (this.mark === undefined) this.#moveMark(this.#newestKey() ?? Buffer.alloc(0));
    if (!this.holds(idKey)) return undefined;
    this.#count = this.count() + 1;
    const newest = this.#newestKey();
    const appended = !newest || Buffer.compare(newest, idKey) < 0;
    if (appended) this.#newest = idKey;
    return { appended };
  }

  /** A document after the mark was removed. */
  removed(): void {
    this.#count = this.count() - 1;
  }

  /**
   * The documents after `from` (the mark when absent), in `_id` order, each with its trigrams:
   * `idKey` a copy, `trigrams` fresh bytes.
   */
  *documents(from = this.mark): Generator<{ idKey: Buffer; trigrams: Buffer }> {
    if (from === undefined) return;
    for (const { key, value } of this.source.docs.getRange({ start: after(from) }))
      yield {
        idKey: Buffer.from(key as Buffer),
        trigrams: this.source.trigramsOf(value as Buffer),
      };
  }

  /** A stored document's trigrams (none when it is gone). */
  trigramsOf(idKey: Buffer): Buffer | undefined {
    const stored = this.source.docs.getBinary(idKey);
    return stored && this.source.trigramsOf(stored);
  }

  /** The documents up to `to` are filed now (inside a write). */
  filedUpTo(to: Buffer): void {
    this.#moveMark(to);
  }

  #moveMark(to: Buffer): void {
    this.index.putSync(MARK, to);
    this.#mark = to;
    this.#count = undefined;
  }

  #newestKey(): Buffer | undefined {
    if (this.#newest === undefined) {
      this.#newest = null;
      for (const key of this.source.docs.getKeys({ reverse: true, limit: 1 }))
        this.#newest = Buffer.from(key as Buffer);
    }
    return this.#newest ?? undefined;
  }
}
