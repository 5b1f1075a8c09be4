import { LRUCache } from 'lru-cache';
import { type Collection, type Document, MongoBulkWriteError } from 'mongodb';
import { perProcess, type RequestContext } from '../../context.js';
import type { ItemHitRecord } from '../../db/collections.js';
import { isDuplicateKey } from '../../db/failure-kinds.js';
import { collectionOf, type ItemKind } from './item.js';
import { markWorksChanged } from './works-version.js';

/**
 * Popularity (docs/contract.md): `hits` counts DISTINCT clients (the account, else the client
 * address: `ctx.clientKey`) that published an item's source or read it through the API, each
 * once per item. The unique `_id` of an `item-hits` record decides; `hits` moves only when that
 * insert is new, so one client repeating a request cannot move a ranking.
 */
export interface HitTarget {
  kind: ItemKind;
  code: string;
}

const MEMO_SIZE = 100_000;

/**
 * Hits this process already knows are recorded (inserted or found to exist), so a client
 * reading the same item again costs no write. Only ever skips an insert that would fail.
 */
const memoOf = perProcess(() => new LRUCache<string, true>({ max: MEMO_SIZE }));

const hitId = (target: HitTarget, client: string) => `${target.kind}:${target.code}:${client}`;

/** Inserts the hit records not known yet; answers the ids that were new. */
async function insertHits(
  ctx: RequestContext,
  targets: readonly HitTarget[],
): Promise<Set<string>> {
  const memo = memoOf(ctx.services);
  const now = new Date();
  const records = new Map<string, ItemHitRecord>();
  for (const target of targets) {
    const _id = hitId(target, ctx.clientKey);
    if (!memo.has(_id) && !records.has(_id))
      records.set(_id, {
        _id,
        kind: target.kind,
        code: target.code,
        client: ctx.clientKey,
        when: now,
      });
  }
  if (records.size === 0) return new Set();
  const docs = [...records.values()];
  const fresh = new Set(records.keys());
  try {
    await ctx.services.db.itemHits.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    for (const failure of errors) {
      if (failure.code !== 11000) throw error;
      fresh.delete((docs[failure.index] as ItemHitRecord)._id);
    }
  }
  for (const _id of records.keys()) memo.set(_id, true);
  return fresh;
}

/**
 * Counts a read (or a repeat publish) of each target by this request's client: one insert for
 * all of them, then one update per collection whose items gained a client. Answers the targets
 * whose `hits` went up by one.
 */
export async function countHits(
  ctx: RequestContext,
  targets: readonly HitTarget[],
): Promise<HitTarget[]> {
  const fresh = await insertHits(ctx, targets);
  if (fresh.size === 0) return [];
  const counted = targets.filter((target) => fresh.delete(hitId(target, ctx.clientKey)));
  const byKind = new Map<ItemKind, string[]>();
  for (const target of counted)
    byKind.set(target.kind, [...(byKind.get(target.kind) ?? []), target.code]);
  const now = new Date();
  await Promise.all(
    [...byKind].map(([kind, codes]) =>
      (collectionOf(ctx.services.db, kind) as unknown as Collection<Document>).updateMany(
        { code: { $in: codes } },
        // Media records (paintings, tapes) keep no lastAccessed in the reference layout.
        kind === 'painting' || kind === 'tape'
          ? { $inc: { hits: 1 } }
          : { $inc: { hits: 1 }, $set: { lastAccessed: now } },
      ),
    ),
  );
  markWorksChanged(ctx.services);
  return counted;
}

/**
 * The publisher of a new item is its first client: its record already says `hits: 1`, so only
 * the hit record is written (a later republish by the same client then counts nothing).
 */
export async function claimFirstHit(ctx: RequestContext, target: HitTarget): Promise<void> {
  // The new record is stored already: listings cached before it are stale from now.
  markWorksChanged(ctx.services);
  const memo = memoOf(ctx.services);
  const _id = hitId(target, ctx.clientKey);
  try {
    await ctx.services.db.itemHits.insertOne({
      _id,
      kind: target.kind,
      code: target.code,
      client: ctx.clientKey,
      when: new Date(),
    });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  memo.set(_id, true);
}

/** After a publish: the first publisher claims its hit, a repeat publish counts as a hit. */
export async function countPublish(
  ctx: RequestContext,
  kind: ItemKind,
  outcome: { code: string; cached: boolean },
): Promise<void> {
  const target = { kind, code: outcome.code };
  if (outcome.cached) await countHits(ctx, [target]);
  else await claimFirstHit(ctx, target);
}
