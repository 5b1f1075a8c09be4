import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { failureOf } from '../mcp/surface.js';
import type { HttpClient } from '../support/http-client.js';

/** What a test asks of the works search, in the REST face's names. */
export interface SearchArgs {
  search?: string;
  kind?: string;
  handle?: string;
  sort?: string;
  limit?: number;
  cursor?: string;
}

export interface FoundWork {
  kind: string;
  code: string;
  author: string | null;
  source: string | null;
  name: string | null;
  excerpt: string | null;
}

/** One page, or the failure's machine code; `next`/`previous` are null at the list's ends. */
export type SearchAnswer =
  | { ok: true; works: FoundWork[]; next: string | null; previous: string | null }
  | { ok: false; code: string };

/** The works search as one face of the service answers it. */
export interface SearchFace {
  name: string;
  search(args: SearchArgs): Promise<SearchAnswer>;
}

interface RestPage {
  items: FoundWork[];
  count: number;
  nextCursor: string | null;
  previousCursor: string | null;
}

const fromPage = (page: RestPage): SearchAnswer => {
  expect(page.count).toBe(page.items.length);
  return { ok: true, works: page.items, next: page.nextCursor, previous: page.previousCursor };
};

/** `GET /api/items?search=&kind=&handle=&sort=&limit=&cursor=`. */
export function restFace(http: HttpClient): SearchFace {
  return {
    name: 'REST',
    async search(args) {
      const query = new URLSearchParams(
        Object.entries(args).map(([key, value]) => [key, String(value)]),
      );
      const response = await http.get(`/api/items?${query}`);
      if (response.status !== 200) {
        expect(response.status).toBe(400);
        expect(response.json).toMatchObject({ error: response.json.message });
        return { ok: false, code: response.json.code };
      }
      return fromPage(response.json as RestPage);
    },
  };
}

const GRAPHQL_SEARCH = `query ($search: String, $kind: ItemKind, $author: String, $sort: PublishedSort,
  $first: Int, $last: Int, $after: String, $before: String) {
  published(search: $search, kind: $kind, author: $author, sort: $sort,
    first: $first, last: $last, after: $after, before: $before) {
    edges { excerpt node { kind code author { handle }
      ... on KidlispItem { source } ... on ClockItem { source } ... on PieceItem { source name } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

/**
 * GraphQL `published(search:)`: a test's cursor is the way and the Relay cursor
 * (`after:<endCursor>`, `before:<startCursor>`), read with first/after or last/before.
 */
export function graphqlFace(http: HttpClient): SearchFace {
  return {
    name: 'GraphQL',
    async search({ search, kind, handle, sort, limit, cursor }) {
      const [way, relay] = cursor ? (cursor.split(/:(.*)/s) as [string, string]) : ['after'];
      const response = await http.graphql(GRAPHQL_SEARCH, {
        search,
        kind: kind?.toUpperCase(),
        author: handle,
        sort: sort?.toUpperCase(),
        ...(way === 'before' ? { last: limit, before: relay } : { first: limit, after: relay }),
      });
      const error = response.json.errors?.[0];
      if (error) return { ok: false, code: error.extensions?.code };
      const page = response.json.data.published;
      return {
        ok: true,
        works: page.edges.map((edge: any) => ({
          kind: String(edge.node.kind).toLowerCase(),
          code: edge.node.code,
          author: edge.node.author?.handle ?? null,
          source: edge.node.source ?? null,
          name: edge.node.name ?? null,
          excerpt: edge.excerpt,
        })),
        next: page.pageInfo.hasNextPage ? `after:${page.pageInfo.endCursor}` : null,
        previous: page.pageInfo.hasPreviousPage ? `before:${page.pageInfo.startCursor}` : null,
      };
    },
  };
}

/** The MCP tool `search_works` (`query` for the term). */
export function mcpFace(name: string, client: () => Client): SearchFace {
  return {
    name,
    async search({ search, ...rest }) {
      const result = await client().callTool({
        name: 'search_works',
        arguments: { query: search ?? '', ...rest },
      });
      if (result.isError) return { ok: false, code: failureOf(result).code };
      return fromPage(result.structuredContent as unknown as RestPage);
    },
  };
}

/** Every page of a list: down it with `next` from the top, then up it with `previous` from the bottom. */
export async function walkBothWays(
  face: SearchFace,
  args: SearchArgs,
): Promise<{ down: string[]; up: string[] }> {
  const pages: SearchAnswer[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await face.search({ ...args, ...(cursor ? { cursor } : {}) });
    if (!page.ok) throw new Error(`${face.name} failed with ${page.code}`);
    pages.push(page);
    if (page.next === null) break;
    cursor = page.next;
  }
  const down = pages.flatMap((page) => (page.ok ? page.works.map((work) => work.code) : []));
  const last = pages.at(-1);
  const up: string[] = last?.ok ? last.works.map((work) => work.code) : [];
  cursor = last?.ok ? (last.previous ?? undefined) : undefined;
  for (let guard = 0; cursor && guard < 100; guard++) {
    const page = await face.search({ ...args, cursor });
    if (!page.ok) throw new Error(`${face.name} failed with ${page.code}`);
    up.unshift(...page.works.map((work) => work.code));
    cursor = page.previous ?? undefined;
  }
  return { down, up };
}
