import { MongoBulkWriteError } from 'mongodb';
import type { Database } from './client.js';
import type { CodeRecord } from './collections.js';

const BATCH = 1_000;

const onlyDuplicates = (error: unknown) =>
  error instanceof MongoBulkWriteError && error.writeErrors instanceof Array && error.writeErrors.every((e) => e.code === 11000);

/**
 * Brings codes written before this service (or by other writers) into the shared registry, so a
 * new code can never repeat one that an existing KidLisp, piece or media record holds.
 * Cheap when nothing is missing: it compares counts first.
 */
export async function syncCodeRegistry(db: Database): Promise<number> {
  const sources = [
    [db.kidlisp, 'kidlisp'],
    [db.pieces, 'piece'],
    [db.paintings, 'painting'],
    [db.tapes, 'tape'],
  ] as const;
  const counts = await Promise.all(sources.map(([collection]) => collection.estimatedDocumentCount()));
  const registered = await db.codes.estimatedDocumentCount();
  if (registered >= counts.reduce((sum, count) => sum + count, 0)) return 0;

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
      batch.push({ _id: record.code, kind, when: record.when instanceof Date ? record.when : new Date(0) });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  return added;
}
