import type { Store } from './store.js';
import type { TrigramPostings } from './trigram-postings.js';
import type { Logger } from './types.js';

/** Postings folded into the blocks per write transaction (a few milliseconds). */
const SLICE_POSTINGS = 16_384;
/** After this long without a write, whatever waits is folded (searches then read blocks only). */
const IDLE_MS = 1_000;

/**
 * Folds the trigram indexes' pending lists (./trigram-postings.ts) into their blocks in the
 * background, once one holds enough documents (or the writes have paused): a slice at a time,
 * each in a write transaction of its own, with the commands that arrive meanwhile run between
 * slices. An insert then pays for one pending-list entry only; a write folds the list itself
 * only when the background has fallen far behind (PostingSizes.mostPending).
 */
export class PostingFolds {
  #scheduled = false;
  #stopped = false;
  /** The writes have paused: every list with a document waiting is folded. */
  #draining = false;
  readonly #idle: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {
    this.#idle = setTimeout(() => {
      this.#draining = true;
      this.#schedule();
    }, IDLE_MS).unref();
  }

  /** After a commit: schedules a slice if a pending list waits to be folded. */
  wake(): void {
    if (this.#stopped) return;
    this.#draining = false;
    this.#idle.refresh();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#stopped || !this.#next()) return;
    this.#scheduled = true;
    setImmediate(() => this.#step());
  }

  /** No slice starts after this (the data files are closing). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#idle);
  }

  #next(): TrigramPostings | undefined {
    for (const db of this.store.databaseNames())
      for (const coll of this.store.collections(db))
        for (const index of coll.indexes.values())
          if (index.ready && index.postings?.wantsFold(this.#draining)) return index.postings;
    return undefined;
  }

  #step(): void {
    this.#scheduled = false;
    const postings = this.#stopped ? undefined : this.#next();
    if (!postings) {
      this.#draining = false;
      return;
    }
    try {
      this.store.write(() => postings.foldSome(SLICE_POSTINGS));
    } catch (error) {
      // Left pending (the transaction rolled back): writes fold it themselves past the limit.
      this.stop();
      this.logger.error({ err: error }, 'embedded database: folding a search index failed');
      return;
    }
    this.#schedule();
  }
}
