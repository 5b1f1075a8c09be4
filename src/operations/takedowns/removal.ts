import DataLoader from 'dataloader';
import { AppError } from '../../app-error.js';
import type { RequestContext, Services } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { RemovedBy, RemovedWorkRecord } from '../../db/collections.js';
import { tracedBatch } from '../../db/traced-batch.js';
import { oneBatch } from '../handle-loaders.js';
import { addressOf, type ItemKind, parseAddress, SHARED_KINDS } from '../items/item.js';
import { removedWorks } from './store.js';

/** What anyone may know of a removed work: what it was and who removed it, never the reason. */
export interface Removal {
  address: string;
  kind: ItemKind;
  code: string;
  by: RemovedBy;
  when: Date;
}

/** The address an address names as stored (`clock~` codes lowercased); null when it cannot be a code. */
export function canonicalAddress(address: string): string | null {
  const parsed = parseAddress(address.trim());
  if (!parsed) return null;
  return parsed.namespace === 'clock' ? addressOf('clock', parsed.code) : parsed.code;
}

/** The kinds an address may name: a melody, or any kind of the shared namespace. */
export const kindsOfAddress = (address: string): readonly ItemKind[] =>
  parseAddress(address)?.namespace === 'clock' ? ['clock'] : SHARED_KINDS;

/** The fields of a removed-works entry that make its Removal. */
const REMOVAL_FIELDS = { _id: 1, kind: 1, code: 1, by: 1, when: 1 };

/** The removal of the work at `address`, or null when nothing removed is there. */
export async function findRemoval(db: Database, address: string): Promise<Removal | null> {
  const canonical = canonicalAddress(address);
  if (canonical === null) return null;
  const entry = await removedWorks(db).findOne({ _id: canonical }, { projection: REMOVAL_FIELDS });
  return entry && removalOf(entry);
}

/**
 * Removals by canonical address, every lookup of one tick in one query. Not cached: a request may
 * take a work down (deleteWork) and then read its lineage.
 */
const createRemovalLoader = ({ db }: Services) =>
  new DataLoader<string, Removal | null>(
    tracedBatch(db, 'removed_works', async (addresses: readonly string[], db) => {
      const entries = await removedWorks(db)
        .find(
          { _id: { $in: [...addresses] } },
          {
            projection: REMOVAL_FIELDS,
            batchSize: oneBatch(addresses.length),
          },
        )
        .toArray();
      const byAddress = new Map(entries.map((entry) => [entry._id, removalOf(entry)]));
      return addresses.map((address) => byAddress.get(address) ?? null);
    }),
    { cache: false },
  );

/** findRemoval for a request that may ask of many works at once (the items of a page). */
export async function loadRemoval(ctx: RequestContext, address: string): Promise<Removal | null> {
  const canonical = canonicalAddress(address);
  return canonical === null ? null : ctx.perRequest(createRemovalLoader).load(canonical);
}

export const removalOf = (
  entry: Pick<RemovedWorkRecord, '_id' | 'kind' | 'code' | 'by' | 'when'>,
) => ({
  address: entry._id,
  kind: entry.kind,
  code: entry.code,
  by: entry.by,
  when: entry.when,
});

/** How a visitor is told who removed it. */
export const removedByText = (by: RemovedBy) =>
  by === 'author' ? 'deleted by its author' : 'removed by the operators of this site';

export const removedError = (removal: Removal, details: Record<string, unknown> = {}) =>
  new AppError('ITEM_REMOVED', `The work ${removal.address} was ${removedByText(removal.by)}.`, {
    removedBy: removal.by,
    ...details,
  });

/**
 * Throws ITEM_REMOVED (410) when the work at `address` was removed; a read that found nothing
 * calls it, so a found work costs no lookup here.
 */
export async function failIfRemoved(
  ctx: RequestContext,
  address: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const removal = await findRemoval(ctx.services.db, address);
  if (removal) throw removedError(removal, details);
}
