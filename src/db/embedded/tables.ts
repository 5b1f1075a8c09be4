import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, open, type RootDatabase } from 'lmdb';
import { CommandError } from './errors.js';

export type Table = Database<Buffer, Buffer>;

const MAP_BYTES = 2 ** 38;
/** How many tables may be open at once: two fixed ones, and one per collection and per index. */
const MAX_TABLES = 4096;

const binary = { keyEncoding: 'binary', encoding: 'binary' } as const;

/** How many entries LMDB counts in the table, as the write under way (or a fresh read) sees it. */
export function storedEntries(table: Table): number {
  return (table.getStats() as { entryCount: number }).entryCount;
}

/** What the write under way does last, inside its transaction (none: no write under way). */
let atEnd: Array<() => void> | undefined;

/**
 * Has `work` done at the end of the write under way, inside its transaction (./trigram-postings.ts
 * folds the documents a transaction inserted there); false when no write is under way.
 */
export function atEndOfWrite(work: () => void): boolean {
  if (!atEnd) return false;
  atEnd.push(work);
  return true;
}

/**
 * The LMDB environment (`data.mdb` in the data directory) and its ordered tables: `catalog` (a
 * BSON description of each collection, by namespace), `changes` (the change streams' log: each
 * committed change as BSON, by its sequence number), and one numbered table per collection
 * (`docs:<n>`: each document as BSON under its `_id` key) and per index (`index:<n>`: the
 * indexed values then the `_id` key; no value).
 *
 * A table of its own per collection and per index keeps each one's keys together: documents
 * arriving in key order (ObjectIds, dates) then fill whole pages, where keys of several
 * collections interleaved in one table would leave every page split in half.
 */
export class Tables {
  readonly env: RootDatabase;
  readonly catalog: Table;
  readonly changes: Table;
  readonly path: string;
  readonly #numbered = new Map<string, Table>();
  /** Tables opened or dropped in the write under way: their handles do not outlive a rollback. */
  #touched: string[] = [];

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = join(dir, 'data.mdb');
    // noSync: a commit reaches the operating system (so it survives the process being killed)
    // without waiting for the disk, which is MongoDB's default promise for acknowledged writes.
    // A map as large as the data may ever get (address space, not memory): growing it would map
    // the file again, and earlier mappings stay resident until every reader lets go of them.
    this.env = open({
      path: this.path,
      maxDbs: MAX_TABLES,
      noSync: true,
      mapSize: MAP_BYTES,
      ...binary,
    });
    // Only this user may read the data (LMDB creates its files with the umask's permissions).
    for (const file of [this.path, `${this.path}-lock`])
      if (existsSync(file)) chmodSync(file, 0o600);
    this.catalog = this.named('catalog');
    this.changes = this.named('changes');
  }

  /** A collection's documents. */
  docs(number: number): Table {
    return this.#table(`docs:${number}`);
  }

  /** An index's entries. */
  index(number: number): Table {
    return this.#table(`index:${number}`);
  }

  /** Removes a collection's documents table and its pages (inside a write). */
  dropDocs(number: number): void {
    this.#drop(`docs:${number}`);
  }

  /** Removes an index's table and its pages (inside a write). */
  dropIndex(number: number): void {
    this.#drop(`index:${number}`);
  }

  /** A table by name, created if missing. */
  named(name: string): Table {
    return this.env.openDB({ name, ...binary }) as unknown as Table;
  }

  /** A table by name if the file has it (an earlier layout's: ./shared-tables.ts). */
  existing(name: string): Table | undefined {
    // `create` is an option of lmdb's that its types leave out.
    const options = { name, ...binary, create: false } as { name: string };
    return this.env.openDB(options) as unknown as Table | undefined;
  }

  /** Runs `change` in one write transaction: all of it is committed, or (if it throws) none. */
  write<T>(change: () => T): T {
    this.#touched = [];
    const outer = atEnd;
    const work: Array<() => void> = [];
    atEnd = work;
    try {
      return this.env.transactionSync(() => {
        const result = change();
        for (let i = 0; i < work.length; i++) (work[i] as () => void)();
        return result;
      }) as T;
    } catch (error) {
      for (const name of this.#touched) this.#numbered.delete(name);
      throw error;
    } finally {
      this.#touched = [];
      atEnd = outer;
    }
  }

  #open(name: string): Table {
    try {
      return this.named(name);
    } catch (error) {
      if (!String(error).includes('MDB_DBS_FULL')) throw error;
      throw new CommandError(
        96,
        'OperationFailed',
        `this database holds at most ${MAX_TABLES - 2} collections and indexes together`,
      );
    }
  }

  #drop(name: string): void {
    this.#table(name).dropSync();
    this.#numbered.delete(name);
  }

  #table(name: string): Table {
    let table = this.#numbered.get(name);
    if (!table) {
      table = this.#open(name);
      this.#numbered.set(name, table);
      this.#touched.push(name);
    }
    return table;
  }
}
