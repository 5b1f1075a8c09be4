import type { Collection, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKey } from '../../db/errors.js';
import { AppError } from '../../errors.js';

export interface PublishOutcome {
  code: string;
  cached: boolean;
}

interface Hashed {
  code: string;
  hash?: string;
}

export interface DeduplicatedWrite<R extends Hashed> {
  collection: Collection<R>;
  hash: string;
  /** Reserves a code that no other publisher holds in this namespace. */
  claim(): Promise<string>;
  /** Returns a claimed code whose record was not written. */
  release(code: string): Promise<void>;
  /** Builds the record for a code, doing any work that must precede it (an object write), with its undo. */
  prepare(code: string): Promise<{ record: R; undo?: () => Promise<void> }>;
}

const MAX_ATTEMPTS = 32;

/** Bumps `hits` and `lastAccessed` on the record with this hash and returns its code. */
async function reuse<R extends Hashed>(collection: Collection<R>, hash: string): Promise<string | undefined> {
  const existing = await collection.findOneAndUpdate(
    { hash } as never,
    { $inc: { hits: 1 }, $set: { lastAccessed: new Date() } } as never,
    { projection: { code: 1 } },
  );
  return existing?.code;
}

/**
 * Publishes content at most once. The database's unique indexes decide every race: a duplicate
 * `hash` means someone published the same content first (answer with their code), a duplicate
 * `code` means that code was taken (try another). Nothing half-written is left behind.
 */
export async function publishDeduplicated<R extends Hashed>(write: DeduplicatedWrite<R>): Promise<PublishOutcome> {
  const existing = await reuse(write.collection, write.hash);
  if (existing) return { code: existing, cached: true };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const code = await write.claim();
    let undo: (() => Promise<void>) | undefined;
    try {
      const prepared = await write.prepare(code);
      undo = prepared.undo;
      await write.collection.insertOne(prepared.record as OptionalUnlessRequiredId<R>);
      return { code, cached: false };
    } catch (error) {
      await undo?.();
      if (isDuplicateKey(error, 'code')) continue; // taken in this collection before the registry knew it
      await write.release(code);
      if (!isDuplicateKey(error, 'hash')) throw error;
      const winner = await reuse(write.collection, write.hash);
      if (winner) return { code: winner, cached: true };
    }
  }
  throw new AppError('INTERNAL', 'The item could not be published; please retry.');
}
