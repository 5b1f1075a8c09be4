import type { Database } from '../../db/client.js';
import type { CodeRecord } from '../../db/collections.js';
import { isDuplicateKey } from '../../db/errors.js';
import { AppError } from '../../errors.js';

const MAX_ATTEMPTS = 64;

/**
 * Claims the first free code of the candidates in the shared namespace of KidLisp, pieces and
 * media. The registry's unique `_id` decides, so two publishers can never hold one code.
 */
export async function claimCode(db: Database, kind: CodeRecord['kind'], candidates: Iterator<string>): Promise<string> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const next = candidates.next();
    if (next.done) break;
    try {
      await db.codes.insertOne({ _id: next.value, kind, when: new Date() });
      return next.value;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  throw new AppError('INTERNAL', 'No free code could be found; please retry.');
}

/** Gives back a claimed code whose record was not written. */
export async function releaseCode(db: Database, code: string): Promise<void> {
  await db.codes.deleteOne({ _id: code });
}
