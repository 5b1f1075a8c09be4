import { BSON, type Document } from 'bson';
import { decodeDocument } from './documents.js';
import { badValue, CommandError } from './errors.js';
import type { Table } from './tables.js';
import { isPlainObject } from './values.js';

/** How many of the latest changes the log keeps (older ones are removed as new ones come). */
export const CHANGE_LOG_SIZE = 10_000;

/** A change to a document, or `drop`: the collection itself went. */
export type ChangeKind = 'insert' | 'update' | 'replace' | 'delete' | 'drop';

/** One committed change to a document, as the log stores it. */
export interface Change {
  seq: number;
  op: ChangeKind;
  db: string;
  coll: string;
  /** The document's `_id` (none for a drop). */
  id?: unknown;
  /** The document after an insert or replace. */
  doc?: Document;
  /** What an update changed, at the top level of the document. */
  updated?: Document;
  removed?: string[];
  wall: Date;
}

const SEQ_BYTES = 8;

const seqKey = (seq: number): Buffer => {
  const key = Buffer.alloc(SEQ_BYTES);
  key.writeBigUInt64BE(BigInt(seq));
  return key;
};
const keySeq = (key: Buffer): number => Number(key.readBigUInt64BE());

/** The resume token of a position in the log: after the change numbered `seq`. */
export const resumeToken = (seq: number): Document => ({
  _data: seq
    .toString(16)
    .toUpperCase()
    .padStart(SEQ_BYTES * 2, '0'),
});

/** The position a resume token stands for; a token this server did not issue is refused. */
export function tokenSeq(token: unknown): number {
  const data = isPlainObject(token) ? token._data : undefined;
  if (typeof data !== 'string' || !/^[0-9A-Fa-f]{16}$/.test(data))
    throw badValue(`not a resume token of this server: ${JSON.stringify(token)}`);
  return Number.parseInt(data, 16);
}

export const historyLost = (message: string) =>
  new CommandError(286, 'ChangeStreamHistoryLost', message);

/**
 * The change streams' source: every change a write commits, numbered in commit order and kept
 * in the `changes` table of the same LMDB environment, in the same transaction as the change
 * itself, so the log survives a restart exactly as the data does. Only the latest
 * `CHANGE_LOG_SIZE` changes are kept; a stream resuming from before them has lost history.
 */
export class ChangeLog {
  #last = 0;

  constructor(
    private readonly table: Table,
    private readonly size = CHANGE_LOG_SIZE,
  ) {
    this.reload();
  }

  /** Reads the latest number from the table: at start, and after a transaction was rolled back. */
  reload(): void {
    const [lastKey] = [...this.table.getKeys({ reverse: true, limit: 1 })] as Buffer[];
    this.#last = lastKey ? keySeq(lastKey) : 0;
  }

  /** The number of the latest change (0 before any): every change up to it is committed. */
  get last(): number {
    return this.#last;
  }

  /** Appends a change; runs inside the write transaction that makes it. */
  record(change: Omit<Change, 'seq' | 'wall'>): void {
    const seq = ++this.#last;
    const entry = { seq, wall: new Date(), ...change };
    this.table.putSync(seqKey(seq), BSON.serialize(entry, { ignoreUndefined: true }) as Buffer);
    // Numbers have no gaps (a rolled-back one is given again), so one change leaves per change.
    if (seq > this.size) this.table.removeSync(seqKey(seq - this.size));
  }

  /**
   * Checks that every change after `seq` is still in the log: refused with 286
   * ChangeStreamHistoryLost when some were removed, or when the position is later than this
   * log's (a token from before the data was lost, or from another database).
   */
  checkResumable(seq: number): void {
    if (seq > this.#last)
      throw historyLost(
        `Resume token ${resumeToken(seq)._data} is later than this database's change history`,
      );
    const [firstKey] = [...this.table.getKeys({ limit: 1 })] as Buffer[];
    if (firstKey && seq < keySeq(firstKey) - 1)
      throw historyLost(
        'Resume of change stream was not possible, as the resume point may no longer be in the change log.',
      );
  }

  /** The changes after `seq`, in commit order, read lazily. */
  *after(seq: number): Generator<Change> {
    for (const { value } of this.table.getRange({ start: seqKey(seq + 1) }))
      yield decodeDocument(value as Buffer) as Change;
  }
}
