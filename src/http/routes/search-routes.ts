import { ObjectId } from 'mongodb';
import type { ErrorCode } from '../../app-error.js';
import { encodePublishedCursor } from '../../operations/items/cursor.js';
import {
  LIST_LIMIT_MAX,
  searchWorks,
  WORKS_SEARCH_MAX,
  worksSearchAnswerSchema,
} from '../../operations/items/index.js';
import { queryOperation, type RouteSpec } from './route-spec.js';

const SEARCH_ERRORS: ErrorCode[] = [
  'SEARCH_TOO_LONG',
  'LIMIT_INVALID',
  'LIMIT_TOO_LARGE',
  'SORT_INVALID',
  'CURSOR_INVALID',
  'HANDLE_INVALID',
  'INVALID_INPUT',
  'UNAUTHENTICATED', // no token is needed, but one that is sent is checked
  'METHOD_NOT_ALLOWED',
  'DB_UNAVAILABLE',
  'INTERNAL',
];

/** The cursor of the example's one work (they are opaque to clients). */
const exampleCursor = encodePublishedCursor({
  sort: 'relevance',
  hits: 4,
  when: new Date('2026-08-03T12:00:00.000Z'),
  id: ObjectId.createFromHexString('66ae1a2b3c4d5e6f70819203'),
});

/** `GET /api/items`: the works search (src/operations/items/search-works.ts). */
export function searchRoutes(baseUrl: string): RouteSpec[] {
  return [
    {
      name: 'Search works',
      operationId: 'searchWorks',
      method: 'GET',
      path: '/api/items',
      description:
        'Published works of every kind holding a text (in KidLisp or piece source, a melody, a piece name or a media slug), or all works without one: the facts GET /api/items/<code> answers plus an excerpt around the first match, a page at a time. The same search as GraphQL published(search:) and the MCP tool search_works; listing counts no hits.',
      authentication: 'none',
      ...queryOperation(searchWorks, 'read', {
        descriptions: {
          search: `Text to find: a case-insensitive literal substring (no wildcards), at most ${WORKS_SEARCH_MAX} characters (more answers 400 SEARCH_TOO_LONG); blank or absent lists every work.`,
          kind: 'Only this kind: kidlisp, clock, piece, painting or tape.',
          handle: 'Only works of this @handle (the @ is optional).',
          sort: 'relevance (the default with a search term: name or slug matches first, then most hits, then newest), recent (newest first; the default without a term) or hits (most popular first).',
          limit: `Works per page, 1 to ${LIST_LIMIT_MAX} (default 50); more answers 400 LIMIT_TOO_LARGE.`,
          after:
            "The next page down the list: the previous page's pageInfo.endCursor, with the same sort.",
          before: "The page above: the previous page's pageInfo.startCursor, with the same sort.",
          cursor:
            'Deprecated until 1.3 (use after or before): nextCursor or previousCursor of a previous answer; after and before win over it.',
        },
      }),
      response: {
        statuses: [200],
        description:
          '{items: [item facts with excerpt], pageInfo}, the shape of every list route of this service (GET /api/items/{code}/remixes too); count, nextCursor and previousCursor are kept beside it until 1.3 for clients of 1.1.',
        schema: worksSearchAnswerSchema,
        descriptions: {},
      },
      errors: SEARCH_ERRORS,
      examples: [
        {
          title: 'Find KidLisp that floods',
          request: {
            method: 'GET',
            path: '/api/items',
            query: { search: 'flood', kind: 'kidlisp', limit: 10 },
          },
          response: {
            status: 200,
            body: {
              items: [
                {
                  kind: 'kidlisp',
                  code: 'f1d',
                  address: 'f1d',
                  url: `${baseUrl}/f1d`,
                  when: '2026-08-03T12:00:00.000Z',
                  hits: 4,
                  author: '@jeffrey',
                  source: '(wipe black)\n(ink red)\n(flood 64 64)',
                  mediaUrl: null,
                  ext: null,
                  name: null,
                  duration: null,
                  excerpt: '(wipe black)\n(ink red)\n(flood 64 64)',
                },
              ],
              pageInfo: {
                hasPreviousPage: false,
                hasNextPage: false,
                startCursor: exampleCursor,
                endCursor: exampleCursor,
              },
              count: 1,
              nextCursor: null,
              previousCursor: null,
            },
          },
        },
      ],
      notes: [
        'Pages read both ways: pass pageInfo.endCursor as after for the next page and pageInfo.startCursor as before for the one above; paging never repeats or skips a work whose hits do not change meanwhile.',
      ],
      since: '1.1.0',
    },
  ];
}
