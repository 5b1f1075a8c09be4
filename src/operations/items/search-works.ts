import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { optional } from '../validation.js';
import { decodePublishedCursor, encodeListCursor, type ListWay } from './cursor.js';
import { itemFacts } from './get-item.js';
import {
  handleField,
  kindField,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  listCursor,
  pageSize,
  publishedCursor,
  searchSortParam,
  worksSearchField,
} from './inputs.js';
import type { Item } from './item.js';
import {
  accountsOf,
  checkList,
  type ItemConnection,
  itemConnection,
} from './published-connection.js';
import type { WorksSearchAnswer } from './works-search-answer.js';

export const searchWorksInput = z
  .object({
    search: worksSearchField,
    kind: optional(kindField),
    handle: optional(handleField('handle')),
    sort: searchSortParam,
    limit: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      pageSize('limit', LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    ),
    after: optional(publishedCursor('after')),
    before: optional(publishedCursor('before')),
    /** Deprecated (until 1.3): nextCursor or previousCursor; after and before win over it. */
    cursor: optional(listCursor('cursor')),
  })
  .superRefine(({ cursor, ...input }, ctx) =>
    checkList(
      {
        ...input,
        ...(cursor && !input.after && !input.before ? { [cursor.way]: cursor.position } : {}),
      },
      ctx,
    ),
  );

export type SearchWorksInput = z.output<typeof searchWorksInput>;

/** A page of the works search: the works found (with excerpts) and the cursors beside it. */
export interface FoundWorksPage {
  works: { item: Item; excerpt: string | null }[];
  /** Pass as `cursor` for the page after this one; null at the end of the list. */
  nextCursor: string | null;
  /** Pass as `cursor` for the page before this one; null on the first page. */
  previousCursor: string | null;
  pageInfo: ItemConnection['pageInfo'];
}

/**
 * The read behind `searchWorks`, for the faces that show the items themselves (the home and
 * author pages' search box); input already checked by `searchWorksInput`.
 */
export async function findWorks(
  ctx: RequestContext,
  input: SearchWorksInput,
): Promise<FoundWorksPage> {
  const users = input.handle === undefined ? undefined : await accountsOf(ctx, input.handle);
  const { way, position } = input.after
    ? { way: 'after', position: input.after }
    : input.before
      ? { way: 'before', position: input.before }
      : (input.cursor ?? { way: 'after', position: undefined });
  const page = await itemConnection(
    ctx,
    {
      kind: input.kind,
      sort: input.sort,
      search: input.search,
      ...(way === 'after'
        ? { first: input.limit, after: position }
        : { last: input.limit, before: position }),
    },
    users,
  );
  const cursorAt = (way: ListWay, cursor: string | null) => {
    const at = cursor === null ? undefined : decodePublishedCursor(cursor);
    return at ? encodeListCursor({ way, position: at }) : null;
  };
  const { pageInfo } = page;
  return {
    works: page.edges.map(({ node, excerpt }) => ({ item: node, excerpt })),
    nextCursor: pageInfo.hasNextPage ? cursorAt('after', pageInfo.endCursor) : null,
    previousCursor: pageInfo.hasPreviousPage ? cursorAt('before', pageInfo.startCursor) : null,
    pageInfo,
  };
}

/**
 * `GET /api/items` and the MCP tool `search_works`: one page of published works holding a term
 * (all works without one), with the facts `GET /api/items/<code>` answers and an excerpt around
 * the first match. Paged both ways by the page's own cursors; lists count no hits.
 */
export const searchWorks = defineOperation({
  name: 'searchWorks',
  input: searchWorksInput,
  async run(ctx: RequestContext, input: SearchWorksInput): Promise<WorksSearchAnswer> {
    const { works, nextCursor, previousCursor, pageInfo } = await findWorks(ctx, input);
    const items = await Promise.all(
      works.map(async ({ item, excerpt }) => ({ ...(await itemFacts(ctx, item)), excerpt })),
    );
    return { items, pageInfo, count: items.length, nextCursor, previousCursor };
  },
});
