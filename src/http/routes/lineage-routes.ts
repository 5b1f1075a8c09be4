import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { encodePublishedCursor } from '../../operations/items/cursor.js';
import {
  itemFactsSchema,
  LIST_LIMIT_MAX,
  PAGE_SIZE_DEFAULT,
} from '../../operations/items/index.js';
import { pageInfoSchema } from '../../operations/items/works-search-answer.js';
import { listRemixes } from '../../operations/lineage/lineage.js';
import { queryOperation, type RouteSpec } from './route-spec.js';

const remixesPageSchema = z.object({
  items: z.array(itemFactsSchema),
  pageInfo: pageInfoSchema,
});

/** A cursor as the example's one remix would have it (they are opaque to clients). */
const exampleCursor = encodePublishedCursor({
  sort: 'recent',
  hits: 1,
  when: new Date('2026-08-04T09:30:00.000Z'),
  id: ObjectId.createFromHexString('66af4a1e2f8b9c0012345678'),
});

/** Remix lineage on the REST face (docs/contract.md, Remix lineage). */
export function lineageRoutes(baseUrl: string): RouteSpec[] {
  return [
    {
      name: 'Remixes of an item',
      operationId: 'itemRemixes',
      method: 'GET',
      path: '/api/items/{code}/remixes',
      description:
        'The works published with remixOf naming this item (clock~<code> for a clock melody), newest first, paged with opaque cursors. Listing counts no hit.',
      authentication: 'none',
      ...queryOperation(listRemixes, 'ok', {
        descriptions: {
          code: 'The code of the remixed work, or clock~<code> for a clock melody.',
          kind: 'Only remixes of this kind: kidlisp, clock, piece, painting or tape.',
          sort: 'recent (newest first, the default) or hits (most popular first).',
          limit: `Remixes per page, 1 to ${LIST_LIMIT_MAX} (default ${PAGE_SIZE_DEFAULT}).`,
          after: "The next page down the list: the previous page's pageInfo.endCursor.",
          before: "The page above: the previous page's pageInfo.startCursor.",
        },
      }),
      response: {
        statuses: [200],
        description:
          'One page of remixes, in list order, each with the facts GET /api/items/{code} answers.',
        schema: remixesPageSchema,
        descriptions: {
          items: 'The remixes in this page.',
          pageInfo: 'Where the page sits in the list, and the cursors to page on.',
        },
      },
      errors: [
        'ITEM_NOT_FOUND',
        'ITEM_REMOVED',
        'LIMIT_INVALID',
        'LIMIT_TOO_LARGE',
        'SORT_INVALID',
        'CURSOR_INVALID',
        'INVALID_INPUT',
        'UNAUTHENTICATED',
        'METHOD_NOT_ALLOWED',
        'DB_UNAVAILABLE',
        'INTERNAL',
      ],
      examples: [
        {
          title: 'The newest remixes of a program',
          request: { method: 'GET', path: '/api/items/k7x/remixes', query: { limit: 10 } },
          response: {
            status: 200,
            body: {
              items: [
                {
                  kind: 'kidlisp',
                  code: 'r2d',
                  address: 'r2d',
                  url: `${baseUrl}/r2d`,
                  when: '2026-08-04T09:30:00.000Z',
                  hits: 1,
                  author: null,
                  source: '(wipe purple)\n(ink yellow)\n(circle 128 128 80)',
                  mediaUrl: null,
                  ext: null,
                  name: null,
                  duration: null,
                  remixOf: 'k7x',
                },
              ],
              pageInfo: {
                hasPreviousPage: false,
                hasNextPage: false,
                startCursor: exampleCursor,
                endCursor: exampleCursor,
              },
            },
          },
        },
      ],
      notes: [
        'Publish a remix by sending remixOf (the parent\u2019s code) with any publish; GET /api/items/{code} answers remixOf for a remix.',
      ],
      since: '1.1.0',
    },
  ];
}
