import { type Collection, type Filter, MongoError } from 'mongodb';
import { AppError } from '../../app-error.js';
import type { Database } from '../../db/client.js';
import { isDatabaseUnavailable, isDuplicateKey } from '../../db/failure-kinds.js';
import type { SharedKind } from '../../domain/item-kinds.js';

const MAX_ATTEMPTS = 64;

/**
 * Claims the first free code of the candidates in the shared namespace of KidLisp, pieces and
 * media. The registry's unique `_id` decides, so two publishers can never hold one code.
 */
export async function claimCode(
  db: Database,
  kind: SharedKind,
  candidates: Iterator<string>,
): Promise<string> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const next = candidates.next();
    if (next.done) break;
    try {
      await db.codes.insertOne({ _id: next.value, type: kind, when: new Date() });
      return next.value;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  throw new AppError('INTERNAL', 'No free code could be found; please retry.');
}

const RELEASE_RETRY_MS = 1_000;
const RELEASE_ATTEMPTS = 120;

/**
 * Gives back a claimed code whose record was not written. An insert that failed on the network
 * may still have landed, so the claim stays when its record exists. When the database is away,
 * the release is retried in the background until it comes back, so no claim is left without its record.
 */
export async function releaseCode<R extends { code: string }>(
  db: Database,
  code: string,
  records: Collection<R>,
  attempt = 1,
): Promise<void> {
  try {
    if (await records.findOne({ code } as Filter<R>, { projection: { _id: 1 } })) return;
    await db.codes.deleteOne({ _id: code });
  } catch (error) {
    const closed =
      error instanceof MongoError &&
      (error.name === 'MongoTopologyClosedError' || error.name === 'MongoNotConnectedError');
    if (isDatabaseUnavailable(error) && !closed && attempt < RELEASE_ATTEMPTS) {
      setTimeout(
        () => void releaseCode(db, code, records, attempt + 1).catch(() => {}),
        RELEASE_RETRY_MS,
      ).unref();
    }
    throw error;
  }
}
