import type { Collection } from 'mongodb';
import type { Database } from '../../db/client.js';
import {
  collectionNames,
  type RemovedWorkRecord,
  type WorkReportRecord,
} from '../../db/collections.js';

/** The removed works, by address (src/db/collections.ts, RemovedWorkRecord). */
export const removedWorks = (db: Database): Collection<RemovedWorkRecord> =>
  db.db.collection<RemovedWorkRecord>(collectionNames.removedWorks);

/** Visitors' reports of works. */
export const workReports = (db: Database): Collection<WorkReportRecord> =>
  db.db.collection<WorkReportRecord>(collectionNames.workReports);

interface GenerationRecord {
  _id: string;
  value: number;
}

const GENERATION_ID = 'works';

const generations = (db: Database) =>
  db.db.collection<GenerationRecord>(collectionNames.removalGeneration);

/**
 * A counter every removal and restore moves: each instance reads it (one lookup by `_id`) a few
 * times a second and drops what it kept of works when it moves (watch.ts).
 */
export async function readRemovalGeneration(db: Database): Promise<number> {
  return (await generations(db).findOne({ _id: GENERATION_ID }))?.value ?? 0;
}

export async function moveRemovalGeneration(db: Database): Promise<void> {
  await generations(db).updateOne({ _id: GENERATION_ID }, { $inc: { value: 1 } }, { upsert: true });
}
