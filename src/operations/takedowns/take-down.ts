import type { Collection, Document } from 'mongodb';
import { AppError } from '../../app-error.js';
import type { Database } from '../../db/client.js';
import type { RemovedBy, RemovedWorkRecord } from '../../db/collections.js';
import { isDuplicateKey } from '../../db/failure-kinds.js';
import { announceRemoval, type RemovalEvents } from '../events/removal-events.js';
import { addressOf, collectionOf, type ItemKind, parseAddress } from '../items/item.js';
import { canonicalAddress, kindsOfAddress, removalOf, removedError } from './removal.js';
import { moveRemovalGeneration, removedWorks, workReports } from './store.js';

/**
 * Taking a work down moves its record out of its collection into `removed-works`, whole: no
 * list, search, count, feed, index (the trigram index included) or reader of the shared
 * collections sees it any more, and `work restore` moves it back as it was. The engine has no
 * transactions, so each step is safe to repeat: the entry is written first, then the record
 * deleted; a step cut short leaves the work shown (never lost), and the same command finishes it.
 */

const anyCollection = (db: Database, kind: ItemKind) =>
  collectionOf(db, kind) as unknown as Collection<Document>;

export interface TakeDown {
  address: string;
  by: RemovedBy;
  reason: string;
  /** Only a work of this account is taken down (an author's deletion); another's is ITEM_NOT_FOUND. */
  owner?: string;
}

const nothingAt = (address: string) =>
  new AppError('ITEM_NOT_FOUND', `Nothing is published under the code ${address}.`);

/**
 * THE one place a work is taken down, by an operator (`work remove`) or by its author (DELETE
 * /api/items/<code>, GraphQL deleteWork); its `work.removed` event is recorded here.
 */
export async function takeDown(
  db: Database,
  request: TakeDown,
  events: RemovalEvents,
): Promise<RemovedWorkRecord> {
  const address = canonicalAddress(request.address);
  const code = address === null ? null : parseAddress(address)?.code;
  if (address === null || !code) throw nothingAt(request.address);
  for (const kind of kindsOfAddress(address)) {
    const collection = anyCollection(db, kind);
    const record = await collection.findOne({ code });
    if (!record) continue;
    if (request.owner !== undefined && record.user !== request.owner) throw nothingAt(address);
    const entry: RemovedWorkRecord = {
      _id: addressOf(kind, code),
      kind,
      code,
      record,
      ...(typeof record.hash === 'string' ? { hash: record.hash } : {}),
      ...(typeof record.slug === 'string' && record.hash === undefined
        ? { slug: record.slug }
        : {}),
      by: request.by,
      reason: request.reason,
      ...(request.owner !== undefined ? { account: request.owner } : {}),
      when: new Date(),
    };
    await removedWorks(db).replaceOne({ _id: entry._id }, entry, { upsert: true });
    await collection.deleteOne({ _id: record._id });
    await workReports(db).updateMany(
      { address: entry._id, state: 'open' },
      { $set: { state: 'closed' } },
    );
    await moveRemovalGeneration(db);
    await announceRemoval(db, events, 'work.removed', entry);
    return entry;
  }
  // Already removed: said so, except to an account that never owned it.
  const entry = await removedWorks(db).findOne({ _id: address });
  if (entry && (request.owner === undefined || entry.record.user === request.owner))
    throw removedError(removalOf(entry));
  throw nothingAt(address);
}

/** Why a removed work cannot go back: the same content, or its code, is published again. */
export class RestoreConflict extends Error {
  override name = 'RestoreConflict';
}

/**
 * Moves a removed work back into its collection as it was; its pages, lists and search show it
 * again, and its `work.restored` event is recorded.
 */
export async function restoreWork(
  db: Database,
  address: string,
  events: RemovalEvents,
): Promise<RemovedWorkRecord> {
  const canonical = canonicalAddress(address);
  const entry = canonical === null ? null : await removedWorks(db).findOne({ _id: canonical });
  if (!entry) throw new AppError('ITEM_NOT_FOUND', `No removed work has the code ${address}.`);
  const collection = anyCollection(db, entry.kind);
  try {
    await collection.insertOne(entry.record as Document);
  } catch (error) {
    // Its own record already back (a restore cut short) is fine; anything else holds its place.
    if (!isDuplicateKey(error, '_id')) {
      if (!isDuplicateKey(error)) throw error;
      throw new RestoreConflict(
        `${entry._id} cannot be restored: the same content (or its code) is published again since.`,
      );
    }
  }
  await removedWorks(db).deleteOne({ _id: entry._id });
  await moveRemovalGeneration(db);
  await announceRemoval(db, events, 'work.restored', entry);
  return entry;
}

/** Every removed work, newest removal first, with who removed it and why. */
export const listRemovedWorks = (db: Database): Promise<RemovedWorkRecord[]> =>
  removedWorks(db)
    .find({}, { projection: { record: 0 } })
    .sort({ when: -1 })
    .toArray();
