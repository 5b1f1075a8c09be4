import type { Document } from 'bson';
import { errorReply } from './errors.js';
import type { Store } from './store.js';

const rollback = new Error('rolled back');

interface Pending {
  run: () => Document;
  resolve: (reply: Document) => void;
}

/**
 * Write commands that arrive in the same turn of the event loop share one LMDB commit: each
 * runs in a child transaction of its own (a command that fails leaves nothing), and every
 * reply is sent only once the commit that holds its changes is done.
 */
export class GroupCommit {
  #pending: Pending[] = [];

  /** `committed`: called after each commit (not after one that failed). */
  constructor(
    private readonly store: Store,
    private readonly committed: () => void = () => undefined,
  ) {}

  /** Runs `run` (a write command; a reply with ok 0 rolls it back) in the next group commit. */
  submit(run: () => Document): Promise<Document> {
    return new Promise((resolve) => {
      if (this.#pending.push({ run, resolve }) === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const group = this.#pending;
    this.#pending = [];
    const replies: Document[] = [];
    try {
      this.store.write(() => {
        for (const { run } of group) replies.push(runAlone(this.store, run));
      });
    } catch (error) {
      for (const { resolve } of group) resolve(errorReply(error));
      return;
    }
    for (const [i, { resolve }] of group.entries()) resolve(replies[i] as Document);
    this.committed();
  }
}

/** One command in a child transaction: kept if it answers ok, undone if it does not. */
function runAlone(store: Store, run: () => Document): Document {
  let reply: Document = {};
  try {
    store.write(() => {
      reply = run();
      if (reply.ok === 0) throw rollback;
    });
  } catch (error) {
    if (error !== rollback) return errorReply(error);
  }
  return reply;
}
