import DataLoader from 'dataloader';
import type { RequestContext, Services } from '../../context.js';
import { tracedBatch } from '../../db/traced-batch.js';
import { createHandleLoaders, type HandleLoaders, oneBatch } from '../handle-loaders.js';
import { foundKinds } from './found-kinds.js';
import {
  collectionOf,
  ITEM_KINDS,
  type Item,
  type ItemKind,
  isCodeShaped,
  parseAddress,
  SHARED_KINDS,
  toItem,
} from './item.js';

/** Per request: each batches every load of one request into one command per collection. */
export interface ItemLoaders extends HandleLoaders {
  /** An item of one kind by its bare code; null when that collection has none. */
  byKind: Record<ItemKind, DataLoader<string, Item | null>>;
}

function createItemLoaders(services: Services): ItemLoaders {
  const { db, config } = services;

  const kindLoader = (kind: ItemKind) =>
    new DataLoader<string, Item | null>(
      tracedBatch(db, `items.${kind}`, async (codes: readonly string[], db) => {
        const records = await collectionOf(db, kind)
          .find({ code: { $in: [...codes] } }, { batchSize: oneBatch(codes.length) })
          .toArray();
        const byCode = new Map(
          records.map((record) => [record.code, toItem(kind, record, config.publicUrl)]),
        );
        return codes.map((code) => byCode.get(code) ?? null);
      }),
    );
  const byKind = Object.fromEntries(ITEM_KINDS.map((kind) => [kind, kindLoader(kind)])) as Record<
    ItemKind,
    DataLoader<string, Item | null>
  >;

  return { byKind, ...createHandleLoaders(db) };
}

/** The request's item loaders, made on first use. */
export const itemLoaders = (ctx: RequestContext): ItemLoaders => ctx.perRequest(createItemLoaders);

/**
 * An item by its address (`<code>`, or `clock~<code>`); null when nothing has it. A shared code
 * is asked of each of its collections; every load of one tick shares one query per collection.
 */
export async function loadAddress(ctx: RequestContext, address: string): Promise<Item | null> {
  const parsed = parseAddress(address);
  if (!parsed) return null;
  return loadCode(ctx, parsed.code, parsed.namespace === 'clock' ? ['clock'] : SHARED_KINDS);
}

/**
 * An item by its bare code among the given kinds (the viewer pages: `/$<code>` is KidLisp only,
 * `/<code>.png` a painting only); null when none has it or it cannot be a code.
 */
export async function loadCode<K extends ItemKind>(
  ctx: RequestContext,
  code: string,
  kinds: readonly K[],
): Promise<Item<K> | null> {
  if (!isCodeShaped(code)) return null;
  const { byKind } = itemLoaders(ctx);
  if (kinds.length === 1) return (await byKind[kinds[0] as K].load(code)) as Item<K> | null;
  const known = foundKinds(ctx.services);
  const guess = known.get(code);
  if (guess && (kinds as readonly ItemKind[]).includes(guess)) {
    const item = await byKind[guess].load(code);
    if (item) return item as Item<K>;
  }
  // The loader keeps the guess's null, so asking every kind asks the others only.
  const found = await Promise.all(kinds.map((kind) => byKind[kind].load(code)));
  // A code is in one collection; should an old database hold it twice, the first kind wins.
  const item = (found.find((candidate) => candidate !== null) as Item<K> | undefined) ?? null;
  if (item) known.set(code, item.kind);
  else known.delete(code);
  return item;
}

/** Keeps an item read by a list, so a later lookup in the same request needs no query. */
export function primeItem(ctx: RequestContext, item: Item): void {
  itemLoaders(ctx).byKind[item.kind].prime(item.code, item);
}

/** `@handle` of an item's author, or null (anonymous, or an account without a handle). */
export async function authorHandleOf(ctx: RequestContext, item: Item): Promise<string | null> {
  if (!item.user) return null;
  const handle = await itemLoaders(ctx).handles.load(item.user);
  return handle ? `@${handle}` : null;
}
