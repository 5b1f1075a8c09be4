import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, open, type RootDatabase } from 'lmdb';

export type Table = Database<Buffer, Buffer>;

/**
 * The LMDB environment (`data.mdb` in the data directory) and its four ordered tables:
 * `catalog` (a BSON description of each collection, by namespace), `docs` (each document as
 * BSON, under its collection's prefix and its `_id` key) and `entries` (every index entry,
 * under its index's prefix, the indexed values and the `_id` key; the value is the `_id` key)
 * and `changes` (the change streams' log: each committed change as BSON, by its sequence number).
 */
export interface Tables {
  env: RootDatabase;
  catalog: Table;
  docs: Table;
  entries: Table;
  changes: Table;
  path: string;
}

const MAP_BYTES = 2 ** 38;

export function openTables(dir: string): Tables {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'data.mdb');
  // noSync: a commit reaches the operating system (so it survives the process being killed)
  // without waiting for the disk, which is MongoDB's default promise for acknowledged writes.
  // A map as large as the data may ever get (address space, not memory): growing it would map
  // the file again, and earlier mappings stay resident until every reader lets go of them.
  const env = open({
    path,
    maxDbs: 8,
    noSync: true,
    mapSize: MAP_BYTES,
    keyEncoding: 'binary',
    encoding: 'binary',
  });
  // Only this user may read the data (LMDB creates its files with the umask's permissions).
  for (const file of [path, `${path}-lock`]) if (existsSync(file)) chmodSync(file, 0o600);
  const table = (name: string): Table =>
    env.openDB({ name, keyEncoding: 'binary', encoding: 'binary' }) as unknown as Table;
  return {
    env,
    catalog: table('catalog'),
    docs: table('docs'),
    entries: table('entries'),
    changes: table('changes'),
    path,
  };
}

/** Removes every key of the table between `start` (inclusive) and `end` (exclusive). */
export function clearRange(table: Table, start: Buffer, end: Buffer | undefined): number {
  let removed = 0;
  for (;;) {
    // In chunks, since removing under a live cursor could skip keys.
    const keys = [...table.getKeys({ start, ...(end && { end }), limit: 1000 })] as Buffer[];
    if (keys.length === 0) return removed;
    for (const key of keys) if (table.removeSync(key)) removed++;
  }
}
