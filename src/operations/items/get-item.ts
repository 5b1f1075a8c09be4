import { z } from 'zod';
import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { failIfRemoved } from '../takedowns/removal.js';
import { codeField, codesField } from './inputs.js';
import type { Item } from './item.js';
import type { ItemFacts } from './item-facts.js';
import { authorHandleOf, loadAddress } from './loaders.js';
import { countHits } from './popularity.js';

/** Items looked up together (one query per collection for all of them); the found ones count a read. */
export async function countedReads(
  ctx: RequestContext,
  lookups: Promise<Item | null>[],
): Promise<(Item | null)[]> {
  const items = await Promise.all(lookups);
  const present = items.filter((item): item is Item => item !== null);
  const counted = await countHits(ctx, present);
  const bumped = new Set(counted.map((target) => `${target.kind}:${target.code}`));
  // A copy: the loader's cached record stays as read.
  return items.map((item) =>
    item && bumped.has(`${item.kind}:${item.code}`) ? { ...item, hits: item.hits + 1 } : item,
  );
}

export const findItemInput = z.object({ code: codeField });

/** An item by its address (`<code>`, or `clock~<code>`), or null; a found item counts a hit; a removed one is ITEM_REMOVED. */
export const findItem = defineOperation({
  name: 'item',
  input: findItemInput,
  async run(ctx: RequestContext, input: z.output<typeof findItemInput>): Promise<Item | null> {
    const [item] = await countedReads(ctx, [loadAddress(ctx, input.code)]);
    if (!item) await failIfRemoved(ctx, input.code);
    return item ?? null;
  },
});

export const notFound = (code: string) =>
  new AppError('ITEM_NOT_FOUND', `Nothing is published under the code ${code}.`);

/** `GET /api/items/<code>` and the MCP tool `get_item`: the item's facts, or 404 ITEM_NOT_FOUND. */
export const getItem = defineOperation({
  name: 'getItem',
  input: findItemInput,
  async run(ctx: RequestContext, input: z.output<typeof findItemInput>): Promise<ItemFacts> {
    const item = await findItem.run(ctx, input);
    if (!item) throw notFound(input.code);
    return itemFacts(ctx, item);
  },
});

export const findItemsInput = z.object({ codes: codesField });

/** Up to 50 items in the order asked, null for a code nothing has; each found item counts a hit. */
export const findItems = defineOperation({
  name: 'items',
  input: findItemsInput,
  run: (ctx: RequestContext, input: z.output<typeof findItemsInput>): Promise<(Item | null)[]> =>
    countedReads(
      ctx,
      input.codes.map((code) => loadAddress(ctx, code)),
    ),
});

/** The JSON facts of an item, its author's handle resolved through the request's loader. */
export async function itemFacts(ctx: RequestContext, item: Item): Promise<ItemFacts> {
  return {
    kind: item.kind,
    code: item.code,
    address: item.address,
    url: item.url,
    when: item.when.toISOString(),
    hits: item.hits,
    author: await authorHandleOf(ctx, item),
    source: item.source,
    mediaUrl: item.mediaUrl,
    ext: item.ext,
    name: item.name,
    duration: item.duration,
    remixOf: item.remixOf?.address ?? null,
  };
}
