import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { RemixOfField } from '../../db/collections.js';
import { itemFacts, notFound } from '../items/get-item.js';
import {
  codeField,
  kindField,
  LIST_LIMIT_MAX,
  PAGE_SIZE_DEFAULT,
  pageSize,
  publishedCursor,
  sortParam,
} from '../items/inputs.js';
import type { Item } from '../items/item.js';
import type { ItemFacts } from '../items/item-facts.js';
import { itemLoaders, loadAddress } from '../items/loaders.js';
import {
  checkList,
  type ItemConnection,
  itemConnection,
  pageArgs,
} from '../items/published-connection.js';
import { defineOperation } from '../operation.js';
import type { Connection } from '../paging.js';
import { failIfRemoved, loadRemoval } from '../takedowns/removal.js';
import { optional } from '../validation.js';

/**
 * Remix lineage (docs/contract.md, Remix lineage): a remix's record names its parent
 * (`remixOf: {kind, code}`), so walking up costs one lookup per level and a work's remixes are
 * one indexed list, paged like `published`.
 */

/** The most ancestors `lineage` walks: a chain deeper than this continues from its last one. */
export const LINEAGE_MAX = 100;

/** The work `item` was remixed from; null for an original (or a parent gone from the database). */
export async function parentOf(ctx: RequestContext, item: Item): Promise<Item | null> {
  const link = item.remixOf;
  return link ? itemLoaders(ctx).byKind[link.kind].load(link.code) : null;
}

/** The work `item` was remixed from was taken down (src/operations/takedowns/). */
export async function parentRemoved(ctx: RequestContext, item: Item): Promise<boolean> {
  if (!item.remixOf || (await parentOf(ctx, item))) return false;
  return (await loadRemoval(ctx, item.remixOf.address)) !== null;
}

/** Its ancestors, the parent first, up to the root: one lookup per level (batched across items). */
export async function lineageOf(ctx: RequestContext, item: Item): Promise<Item[]> {
  const ancestors: Item[] = [];
  let current: Item | null = item;
  while (ancestors.length < LINEAGE_MAX && current) {
    current = await parentOf(ctx, current);
    if (current) ancestors.push(current);
  }
  return ancestors;
}

const linkOf = (item: Item): RemixOfField => ({ kind: item.kind, code: item.code });

/** The parent comes from the resolver (the item the field is on), never from a client. */
export const remixesConnectionInput = z
  .object({ ...pageArgs, parent: z.custom<Item>() })
  .superRefine(checkList);

/** GraphQL `remixes` of an item: its remixes of every kind, newest first (or by hits), paged. */
export const remixesConnection = defineOperation({
  name: 'remixes',
  input: remixesConnectionInput,
  run: (
    ctx: RequestContext,
    { parent, ...input }: z.output<typeof remixesConnectionInput>,
  ): Promise<ItemConnection> => itemConnection(ctx, input, undefined, linkOf(parent)),
});

export const listRemixesInput = z
  .object({
    code: codeField,
    kind: optional(kindField),
    sort: sortParam,
    limit: optional(pageSize('limit', LIST_LIMIT_MAX)),
    after: optional(publishedCursor('after')),
    before: optional(publishedCursor('before')),
  })
  .superRefine(checkList);

/** `GET /api/items/<code>/remixes`: a page of facts, and where it sits in the list. */
export type RemixesPage = { items: ItemFacts[]; pageInfo: Connection<Item>['pageInfo'] };

/**
 * `GET /api/items/<code>/remixes`: `after` pages down the list, `before` (alone) up it; the
 * cursors are the page's `startCursor` and `endCursor`. Listing counts no hit.
 */
export const listRemixes = defineOperation({
  name: 'listRemixes',
  input: listRemixesInput,
  async run(
    ctx: RequestContext,
    { code, limit, ...list }: z.output<typeof listRemixesInput>,
  ): Promise<RemixesPage> {
    const parent = await loadAddress(ctx, code);
    if (!parent) await failIfRemoved(ctx, code);
    if (!parent) throw notFound(code);
    const size = limit ?? PAGE_SIZE_DEFAULT;
    const upward = list.before !== undefined && list.after === undefined;
    const page = await itemConnection(
      ctx,
      { ...list, ...(upward ? { last: size } : { first: size }) },
      undefined,
      linkOf(parent),
    );
    return {
      items: await Promise.all(page.edges.map((edge) => itemFacts(ctx, edge.node))),
      pageInfo: page.pageInfo,
    };
  },
});
