import type { Store } from './store.js';
import type { TrigramPostings } from './trigram-postings.js';
import type { Logger } from './types.js';

/** Postings folded into the blocks per write transaction (a few milliseconds). */
const SLICE_POSTINGS = 8_192;

/**
 * Folds the trigram indexes' pending lists (./trigram-postings.ts) into their blocks in the
 * background, once one holds enough documents: a slice at a time, each in a write transaction
 * of its own, with the commands that arrive meanwhile run between slices. An insert then pays
 * for one pending-list entry only; a write folds the list itself only when the background has
 * fallen far behind (PostingSizes.mostPending).
 */
export class PostingFolds {
  #scheduled = false;
  #stopped = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /** After a commit: schedules a slice if a pending list waits to be folded. */
  wake(): void {
    if (this.#scheduled || this.#stopped || !this.#next()) return;
    this.#scheduled = true;
    setImmediate(() => this.#step());
  }

  /** No slice starts after this (the data files are closing). */
  stop(): void {
    this.#stopped = true;
  }

  #next(): TrigramPostings | undefined {
    for (const db of this.store.databaseNames())
      for (const coll of this.store.collections(db))
        for (const index of coll.indexes.values())
          if (index.postings?.wantsFold && index.ready) return index.postings;
    return undefined;
  }

  #step(): void {
    this.#scheduled = false;
    const postings = this.#stopped ? undefined : this.#next();
    if (!postings) return;
    try {
      this.store.write(() => postings.foldSome(SLICE_POSTINGS));
    } catch (error) {
      // Left pending (the transaction rolled back): writes fold it themselves past the limit.
      this.#stopped = true;
      this.logger.error({ err: error }, 'embedded database: folding a search index failed');
      return;
    }
    this.wake();
  }
}
