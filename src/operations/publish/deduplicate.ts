import type { Collection, OptionalUnlessRequiredId } from 'mongodb';
import { AppError } from '../../app-error.js';
import { isDuplicateKey } from '../../db/failure-kinds.js';

export interface PublishOutcome {
  code: string;
  cached: boolean;
}

export interface DeduplicatedWrite<R extends { code: string }> {
  collection: Collection<R>;
  /** The unique field that says "this content is already here": `hash` for sources, `slug` for media. */
  identity: 'hash' | 'slug';
  /** The code of the record that already holds this identity, if any. */
  existing(): Promise<string | undefined>;
  /** Reserves a code that no other publisher holds in this namespace. */
  claim(): Promise<string>;
  /** Returns a claimed code whose record was not written. */
  release(code: string): Promise<void>;
  /** Builds the record for a code, doing any work that must precede it (an object write), with its undo. */
  prepare(code: string): Promise<{ record: R; undo?: () => Promise<void> }>;
}

const MAX_ATTEMPTS = 32;

/**
 * The code of the record with this hash. Its `hits` are not touched here: a repeat publish
 * counts once per client, after the outcome is known (src/operations/items/popularity.ts).
 */
export async function codeByHash<R extends { code: string }>(
  collection: Collection<R>,
  hash: string,
): Promise<string | undefined> {
  const existing = await collection.findOne({ hash } as never, { projection: { code: 1 } });
  return existing?.code;
}

/**
 * Publishes content at most once. The database's unique indexes decide every race: a duplicate
 * identity (hash or slug) means someone published the same content first (answer with their
 * code), a duplicate `code` means that code was taken (try another). Nothing half-written is left behind.
 */
export async function publishDeduplicated<R extends { code: string }>(
  write: DeduplicatedWrite<R>,
): Promise<PublishOutcome> {
  const existing = await write.existing();
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
      if (!isDuplicateKey(error, write.identity)) throw error;
      const winner = await write.existing();
      if (winner) return { code: winner, cached: true };
    }
  }
  throw new AppError('INTERNAL', 'The item could not be published; please retry.');
}
