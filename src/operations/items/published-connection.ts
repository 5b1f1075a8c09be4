import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { RemixOfField } from '../../db/collections.js';
import { annotate, searchTermAttributes } from '../../telemetry/active-span.js';
import { defineOperation } from '../operation.js';
import { type Connection, relayPage } from '../paging.js';
import { failWith, optional } from '../validation.js';
import { encodePublishedCursor, type PublishedPosition, type PublishedSort } from './cursor.js';
import {
  handleField,
  kindField,
  LIST_LIMIT_MAX,
  PAGE_SIZE_DEFAULT,
  pageSize,
  publishedCursor,
  searchSortParam,
  sortParam,
  worksSearchField,
} from './inputs.js';
import { ITEM_KINDS, type Item, type ItemKind } from './item.js';
import { itemLoaders, primeItem } from './loaders.js';
import { readPublished } from './read-published.js';

/** A page of works; a search's edges carry an excerpt around the first match (null otherwise). */
export type ItemConnection = Connection<Item, { excerpt: string | null }>;

export const pageArgs = {
  kind: optional(kindField),
  sort: sortParam,
  first: optional(pageSize('first', LIST_LIMIT_MAX)),
  last: optional(pageSize('last', LIST_LIMIT_MAX)),
  after: optional(publishedCursor('after')),
  before: optional(publishedCursor('before')),
};

/** The list's order: the sort named, else relevance with a search term and recent without. */
export const sortOf = (input: {
  sort?: PublishedSort | undefined;
  search?: string | undefined;
}): PublishedSort => input.sort ?? (input.search === undefined ? 'recent' : 'relevance');

/**
 * The rules of a list the schema cannot say: relevance orders a search only, and a cursor is
 * one of the list's own sort; with `paging`, Relay's one direction.
 */
export function checkList(
  input: {
    sort?: PublishedSort | undefined;
    search?: string | undefined;
    first?: number | undefined;
    last?: number | undefined;
  } & {
    after?: { sort: PublishedSort } | undefined;
    before?: { sort: PublishedSort } | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (input.first !== undefined && input.last !== undefined)
    failWith(ctx, 'LIMIT_INVALID', 'Pass first or last, not both.');
  if (input.sort === 'relevance' && input.search === undefined)
    failWith(ctx, 'SORT_INVALID', 'sort relevance orders a search: pass a search term too.');
  const sort = sortOf(input);
  for (const field of ['after', 'before'] as const) {
    const cursor = input[field];
    if (cursor && cursor.sort !== sort)
      failWith(
        ctx,
        'CURSOR_INVALID',
        `That cursor belongs to the list sorted by ${cursor.sort}; pass it with that sort (${cursor.sort.toUpperCase()} in GraphQL).`,
      );
  }
}

export const publishedConnectionInput = z
  .object({
    ...pageArgs,
    sort: searchSortParam,
    author: optional(handleField('author')),
    search: worksSearchField,
  })
  .superRefine(checkList);

/** The accounts are the resolver's (an Author's or the viewer's), never a client's argument. */
export const worksConnectionInput = z
  .object({ ...pageArgs, accounts: z.array(z.string()) })
  .superRefine(checkList);

export type PublishedConnectionInput = z.output<typeof publishedConnectionInput>;
export type WorksConnectionInput = z.output<typeof worksConnectionInput>;

/** What a page of works is asked for: filters, order and where it starts. */
export interface ItemPageQuery {
  kind?: ItemKind | undefined;
  /** The sort named, if any (sortOf). */
  sort?: PublishedSort | undefined;
  search?: string | undefined;
  first?: number | undefined;
  last?: number | undefined;
  after?: PublishedPosition | undefined;
  before?: PublishedPosition | undefined;
}

/**
 * One page of a published list. `first`/`after` read down the list (older, or fewer hits),
 * `last`/`before` up it; edges are always in list order. With neither, the first 20.
 */
export async function itemConnection(
  ctx: RequestContext,
  input: ItemPageQuery,
  users: readonly string[] | undefined,
  remixOf?: RemixOfField,
): Promise<ItemConnection> {
  if (input.search) annotate(ctx.services.trace, searchTermAttributes(input.search));
  const forward =
    input.last === undefined && (input.first !== undefined || input.before === undefined);
  const size = input.first ?? input.last ?? PAGE_SIZE_DEFAULT;
  const kinds: readonly ItemKind[] = input.kind ? [input.kind] : ITEM_KINDS;
  return relayPage(
    { size, forward, after: input.after, before: input.before },
    (limit) =>
      readPublished(ctx, {
        kinds,
        sort: sortOf(input),
        users,
        search: input.search,
        remixOf,
        after: input.after,
        before: input.before,
        end: forward ? 'top' : 'bottom',
        size: limit,
      }),
    ({ item, position, excerpt }) => {
      primeItem(ctx, item);
      return { cursor: encodePublishedCursor(position), node: item, excerpt };
    },
  );
}

/** The accounts behind a handle; none (an empty list) when no account has it. */
export const accountsOf = (ctx: RequestContext, handle: string) =>
  itemLoaders(ctx).accounts.load(handle);

/** GraphQL `published`: every account's works, or one author's (`author: "@handle"`), or a search's. */
export const publishedConnection = defineOperation({
  name: 'published',
  input: publishedConnectionInput,
  async run(ctx: RequestContext, input: PublishedConnectionInput): Promise<ItemConnection> {
    const users = input.author === undefined ? undefined : await accountsOf(ctx, input.author);
    return itemConnection(ctx, input, users);
  },
});

/** An author's (or the viewer's) works: the accounts come from the resolver. */
export const worksConnection = defineOperation({
  name: 'works',
  input: worksConnectionInput,
  run: (ctx: RequestContext, input: WorksConnectionInput): Promise<ItemConnection> =>
    itemConnection(ctx, input, input.accounts),
});
