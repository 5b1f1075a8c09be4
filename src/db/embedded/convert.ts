import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Document } from 'bson';
import { decodeDocument } from './documents.js';
import type { IndexSpec } from './index-spec.js';
import type { Store } from './store.js';
import type { Logger } from './types.js';

/**
 * Reading the format of earlier versions (`snapshot.bson` plus `journal-<generation>.log`),
 * once, to convert it: each file is a series of records, a u32 length, a u32 CRC-32 of the
 * body, then the body as BSON; the snapshot's first record holds the generation.
 */
const SNAPSHOT = 'snapshot.bson';

export const hasOldFormat = (dir: string) => existsSync(join(dir, SNAPSHOT));

function* records(bytes: Buffer, tolerateTornEnd: boolean): Generator<Document> {
  for (let at = 0; at < bytes.length; ) {
    const length = at + 8 <= bytes.length ? bytes.readUInt32LE(at) : -1;
    const body = length >= 5 ? bytes.subarray(at + 8, at + 8 + length) : undefined;
    const intact =
      body !== undefined && body.length === length && crc32(body) === bytes.readUInt32LE(at + 4);
    if (!intact) {
      if (tolerateTornEnd) return;
      throw new Error(`the old snapshot is damaged at byte ${at}`);
    }
    yield decodeDocument(body);
    at += 8 + length;
  }
}

function apply(store: Store, record: Document): void {
  const { op, db, coll } = record as { op: string; db: string; coll: string };
  switch (op) {
    case 'put': {
      const target = store.ensureCollection(db, coll);
      const doc = record.doc as Document;
      const old = target.fetch(target.idKey(doc._id));
      if (old) target.replace(old, doc);
      else target.insert(doc);
      return;
    }
    case 'del': {
      const target = store.collection(db, coll);
      const old = target?.fetch(target.idKey(record.id));
      if (old) target?.remove(old);
      return;
    }
    case 'createColl':
      store.ensureCollection(db, coll);
      return;
    case 'createIndex':
      store.ensureCollection(db, coll).createIndex(record.spec as IndexSpec);
      return;
    case 'dropIndex':
      store.collection(db, coll)?.dropIndex(record.name);
      return;
    case 'dropColl':
      store.dropCollection(db, coll);
      return;
    case 'dropDb':
      store.dropDatabase(db);
      return;
  }
}

/**
 * Converts a data directory in the old format into the store (one transaction), then moves
 * the old files into `old-format-<date>/` beside it, as a backup.
 */
export function convertOldFormat(dir: string, store: Store, logger: Logger): void {
  const snapshot = readFileSync(join(dir, SNAPSHOT));
  const [header, ...rest] = [...records(snapshot, false)];
  const generation = Number(header?.generation ?? 0);
  const journalName = `journal-${generation}.log`;
  const journalPath = join(dir, journalName);
  const journal = existsSync(journalPath) ? readFileSync(journalPath) : Buffer.alloc(0);
  let documents = 0;
  store.write(() => {
    for (const record of [...rest, ...records(journal, true)]) {
      apply(store, record);
      if (record.op === 'put') documents++;
    }
  });
  const backup = join(dir, `old-format-${new Date().toISOString().replaceAll(':', '-')}`);
  mkdirSync(backup, { mode: 0o700 });
  for (const name of readdirSync(dir))
    if (name === SNAPSHOT || /^journal-\d+\.log$/.test(name) || name === 'snapshot.tmp')
      renameSync(join(dir, name), join(backup, name));
  logger.info(
    { dir, backup, documents },
    'embedded database converted from the snapshot-and-journal format; the old files are kept as a backup',
  );
}
