import { MongoBulkWriteError } from 'mongodb';
import type { Database } from './client.js';
import type { CodeRecord } from './collections.js';
import { reservedWords } from '../domain/codes.js';

const BATCH = 1_000;

const onlyDuplicates = (error: unknown) =>
  error instanceof MongoBulkWriteError &&
  error.writeErrors instanceof Array &&
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
        db.codes.countDocuments({ kind }),
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
        kind,
        when: record.when instanceof Date ? record.when : new Date(0),
      });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  return added;
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
