import { MongoBulkWriteError } from 'mongodb';
import { reservedWords } from '../domain/codes.js';
import type { SharedKind } from '../domain/item-kinds.js';
import type { Database } from './client.js';
import {
  type CodeRecord,
  codesOfKind,
  collectionNames,
  type RemovedWorkRecord,
} from './collections.js';

const BATCH = 1_000;

const onlyDuplicates = (error: unknown) =>
  error instanceof MongoBulkWriteError &&
  Array.isArray(error.writeErrors) &&
  error.writeErrors.every((e) => e.code === 11000);

/**
 * Brings codes written before this service (or by other writers) into the shared registry, so a
 * new code can never repeat one that an existing KidLisp, piece or media record holds. A kind
 * whose registered count already reaches its records' count is skipped (cheap at every start-up);
 * the copy itself is idempotent.
 */
export async function syncCodeRegistry(db: Database): Promise<number> {
  const all = [
    [db.kidlisp, 'kidlisp'],
    [db.pieces, 'piece'],
    [db.paintings, 'painting'],
    [db.tapes, 'tape'],
  ] as const;
  const behind = await Promise.all(
    all.map(async ([collection, kind]) => {
      const [records, registered] = await Promise.all([
        collection.estimatedDocumentCount(),
        db.codes.countDocuments(codesOfKind(kind)),
      ]);
      return registered < records;
    }),
  );
  const sources = all.filter((_, i) => behind[i]);

  let added = 0;
  for (const [collection, kind] of sources) {
    let batch: CodeRecord[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      try {
        added += (await db.codes.insertMany(batch, { ordered: false })).insertedCount;
      } catch (error) {
        if (!onlyDuplicates(error)) throw error;
        added += (error as MongoBulkWriteError).insertedCount;
      }
      batch = [];
    };
    for await (const record of collection.find({}, { projection: { code: 1, when: 1 } })) {
      if (typeof record.code !== 'string') continue;
      batch.push({
        _id: record.code,
        type: kind,
        when: record.when instanceof Date ? record.when : new Date(0),
      });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  return added;
}

/**
 * Removes claims older than `olderThan` whose record was never written (a publisher killed between
 * claiming a code and writing its record), so the code is free again. A claim is young while its
 * publisher may still be writing: only ones from before `olderThan` are looked at.
 */
export async function sweepOrphanedClaims(db: Database, olderThan: Date): Promise<number> {
  const records = {
    kidlisp: db.kidlisp,
    piece: db.pieces,
    painting: db.paintings,
    tape: db.tapes,
  } as const;
  let removed = 0;
  for (const [kind, collection] of Object.entries(records) as [
    SharedKind,
    (typeof records)[SharedKind],
  ][]) {
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const found = await collection
        .find({ code: { $in: batch } }, { projection: { code: 1, _id: 0 } })
        .toArray();
      // A removed work keeps its code (its page says it was removed; `work restore` needs it).
      const takenDown = await db.db
        .collection<RemovedWorkRecord>(collectionNames.removedWorks)
        .find({ _id: { $in: batch } }, { projection: { _id: 1 } })
        .toArray();
      const present = new Set([
        ...found.map(({ code }) => code),
        ...takenDown.map(({ _id }) => _id),
      ]);
      const orphans = batch.filter((code) => !present.has(code));
      if (orphans.length > 0) {
        removed += (
          await db.codes.deleteMany({
            _id: { $in: orphans },
            ...codesOfKind(kind),
            when: { $lt: olderThan },
          })
        ).deletedCount;
      }
      batch = [];
    };
    const claims = db.codes.find(
      { ...codesOfKind(kind), when: { $lt: olderThan } },
      { projection: { _id: 1 } },
    );
    for await (const claim of claims) {
      batch.push(claim._id);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  return removed;
}

/**
 * Codes already stored (registered, or in a record not yet registered) that equal a path of
 * this service, such as `chat`: such an item stays in the database but its path answers the
 * service's page. Run after syncCodeRegistry, so the registry holds every code.
 */
export async function reservedCodesInUse(db: Database): Promise<string[]> {
  const rows = await db.codes
    .find({ _id: { $in: reservedWords() } }, { projection: { _id: 1 } })
    .toArray();
  return rows.map((row) => row._id).sort();
}
