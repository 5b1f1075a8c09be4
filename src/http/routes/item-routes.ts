import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import {
  CODES_MAX,
  getItem,
  itemFactsSchema,
  LIST_LIMIT_MAX,
  readPieceMetadata,
  readStoreClock,
  readStoreKidlisp,
} from '../../operations/items/index.js';
import { deleteWork } from '../../operations/takedowns/delete-work.js';
import { queryOperation, type RouteSpec } from './route-spec.js';

const deletedWorkSchema = z.object({
  code: z.string(),
  address: z.string(),
  deleted: z.literal(true),
});

/** A record as the reference's GET reads answer it. */
const entrySchema = z.object({
  source: z.string(),
  when: z.string(),
  hits: z.number().int(),
  user: z.string().nullable(),
  handle: z.string().nullable(),
});
const listedSchema = entrySchema.extend({ code: z.string(), preview: z.string() });

const kidlispReadSchema = z.union([
  entrySchema,
  z.object({
    results: z.record(z.string(), entrySchema.nullable()),
    summary: z.object({
      requested: z.number().int(),
      found: z.number().int(),
      missing: z.number().int(),
      foundCodes: z.array(z.string()),
      missingCodes: z.array(z.string()),
    }),
  }),
  z.object({ recent: z.array(listedSchema), count: z.number().int(), limit: z.number().int() }),
]);

const clockReadSchema = z.union([
  entrySchema.extend({ code: z.string() }),
  z.object({ recent: z.array(listedSchema), count: z.number().int() }),
]);

const pieceMetadataSchema = z.object({
  code: z.string(),
  trustLevel: z.string(),
  anonymous: z.boolean(),
  authorSub: z.string().nullable().optional(),
  when: z.string().optional(),
});

const READ_ERRORS: ErrorCode[] = [
  'INVALID_INPUT',
  'UNAUTHENTICATED', // no token is needed, but one that is sent is checked
  'METHOD_NOT_ALLOWED',
  'DB_UNAVAILABLE',
  'INTERNAL',
];
const LIST_ERRORS: ErrorCode[] = ['LIMIT_INVALID', 'LIMIT_TOO_LARGE', 'SORT_INVALID'];

const listDescriptions = {
  recent: '1: list published items instead of looking one up.',
  limit: `Items listed, 1 to ${LIST_LIMIT_MAX} (default 50); more answers 400 LIMIT_TOO_LARGE.`,
  sort: 'recent (newest first, the default) or hits (most popular first).',
};

const entry = {
  source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)',
  when: '2026-08-03T12:00:00.000Z',
  hits: 3,
  user: null,
  handle: null,
};

/** The read side: the reference's GET reads, and the service's own item route. */
export function itemRoutes(baseUrl: string): RouteSpec[] {
  return [
    {
      name: 'Read KidLisp',
      operationId: 'readKidlisp',
      method: 'GET',
      path: '/api/store-kidlisp',
      description:
        'Reads published KidLisp: one program by code, up to 50 by codes, or a recent or popular list. Reading a program counts a hit, once per client.',
      authentication: 'none',
      ...queryOperation(readStoreKidlisp, 'read', {
        descriptions: {
          code: 'One code (exact): answers {source, when, hits, user, handle}; 404 ITEM_NOT_FOUND when nothing has it.',
          codes: `Up to ${CODES_MAX} codes, comma-separated or a JSON array: answers {results: {code: entry | null}, summary}.`,
          ...listDescriptions,
          handle: 'With recent=1: only works of this @handle.',
        },
      }),
      response: {
        statuses: [200],
        description:
          'By code: the entry. By codes: {results, summary: {requested, found, missing, foundCodes, missingCodes}}. With recent=1: {recent: [entry with code and preview], count, limit}.',
        schema: kidlispReadSchema,
      },
      errors: [
        'CODE_REQUIRED',
        'CODES_INVALID',
        'TOO_MANY_CODES',
        ...LIST_ERRORS,
        'HANDLE_INVALID',
        'ITEM_NOT_FOUND',
        'ITEM_REMOVED',
        ...READ_ERRORS,
      ],
      examples: [
        {
          title: 'Read a program by code',
          request: { method: 'GET', path: '/api/store-kidlisp', query: { code: 'k7x' } },
          response: { status: 200, body: entry },
        },
        {
          title: 'The most popular programs',
          request: {
            method: 'GET',
            path: '/api/store-kidlisp',
            query: { recent: 1, sort: 'hits', limit: 5 },
          },
          response: {
            status: 200,
            body: {
              recent: [
                { code: 'k7x', ...entry, preview: '(wipe navy)\n(ink yellow)\n(circle 128 12...' },
              ],
              count: 1,
              limit: 5,
            },
          },
        },
      ],
      notes: [
        'Without code, codes or recent: 400 CODE_REQUIRED. More than 50 codes: 400 TOO_MANY_CODES.',
        'hits counts distinct clients (an account, else an address) that published or read the item; a client repeating a request counts once.',
      ],
    },
    {
      name: 'Read clock melody',
      operationId: 'readClock',
      method: 'GET',
      path: '/api/store-clock',
      description:
        'Reads a published melody by code (case-insensitive), or lists recent or popular melodies. Reading a melody counts a hit, once per client.',
      authentication: 'none',
      ...queryOperation(readStoreClock, 'read', {
        descriptions: {
          code: 'The melody code: answers {code, source, when, hits, user, handle}; 404 ITEM_NOT_FOUND when nothing has it.',
          ...listDescriptions,
        },
      }),
      response: {
        statuses: [200],
        description:
          'By code: the melody. With recent=1: {recent: [entry with code and preview], count}.',
        schema: clockReadSchema,
      },
      errors: ['CODE_REQUIRED', ...LIST_ERRORS, 'ITEM_NOT_FOUND', 'ITEM_REMOVED', ...READ_ERRORS],
      examples: [
        {
          title: 'Read a melody',
          request: { method: 'GET', path: '/api/store-clock', query: { code: 'bako' } },
          response: {
            status: 200,
            body: { code: 'bako', ...entry, source: '{square} 5cdefg ceg' },
          },
        },
      ],
      notes: [`Play it at ${baseUrl}/clock~<code>.`],
    },
    {
      name: 'Piece metadata',
      operationId: 'pieceMetadata',
      method: 'GET',
      path: '/api/piece-metadata',
      description:
        'Who published a piece and how far it is trusted. An unknown code answers the defaults (untrusted, anonymous).',
      authentication: 'none',
      ...queryOperation(readPieceMetadata, 'read', {
        descriptions: { code: 'The piece code.' },
      }),
      response: {
        statuses: [200],
        description: 'The piece\u2019s metadata; authorSub and when only for a known piece.',
        schema: pieceMetadataSchema,
        descriptions: {
          code: 'The code asked.',
          trustLevel: 'untrusted (the default) or trusted.',
          anonymous: 'true when published without an account.',
          authorSub: 'The publishing account, or null.',
          when: 'ISO time it was published.',
        },
      },
      errors: ['CODE_REQUIRED', ...READ_ERRORS],
      examples: [
        {
          title: 'Metadata of an unknown piece',
          request: { method: 'GET', path: '/api/piece-metadata', query: { code: 'nothing-here' } },
          response: {
            status: 200,
            body: { code: 'nothing-here', trustLevel: 'untrusted', anonymous: true },
          },
        },
      ],
    },
    {
      name: 'Item',
      operationId: 'item',
      method: 'GET',
      path: '/api/items/{code}',
      description:
        'Any published item by its code (clock~<code> for a clock melody): the same facts as GraphQL item and the MCP tool get_item. Reading counts a hit, once per client.',
      authentication: 'none',
      ...queryOperation(getItem, 'read', {
        descriptions: { code: 'The code, or clock~<code> for a clock melody.' },
      }),
      response: {
        statuses: [200],
        description: 'The item.',
        schema: itemFactsSchema,
        descriptions: {},
      },
      errors: ['ITEM_NOT_FOUND', 'ITEM_REMOVED', ...READ_ERRORS],
      examples: [
        {
          title: 'Read a KidLisp program',
          request: { method: 'GET', path: '/api/items/k7x' },
          response: {
            status: 200,
            body: {
              kind: 'kidlisp',
              code: 'k7x',
              address: 'k7x',
              url: `${baseUrl}/k7x`,
              when: entry.when,
              hits: 3,
              author: null,
              source: entry.source,
              mediaUrl: null,
              ext: null,
              name: null,
              duration: null,
              remixOf: null,
            },
          },
        },
      ],
    },
    {
      name: 'Delete your work',
      operationId: 'deleteWork',
      method: 'DELETE',
      path: '/api/items/{code}',
      description:
        'Takes down a work of your own account (the bearer token\u2019s): it leaves every list, search and feed, and its page and reads answer 410 ITEM_REMOVED. The same source may be published again. A work of another account answers 404, as if it were not there.',
      authentication: 'required',
      ...queryOperation(deleteWork, 'ok', {
        descriptions: { code: 'The code, or clock~<code> for a clock melody.' },
      }),
      response: {
        statuses: [200],
        description: 'The work was deleted.',
        schema: deletedWorkSchema,
        descriptions: {
          code: 'The deleted work\u2019s code.',
          address: 'Its address (clock~<code> for a melody).',
          deleted: 'Always true.',
        },
      },
      errors: ['ITEM_NOT_FOUND', 'ITEM_REMOVED', ...READ_ERRORS],
      examples: [
        {
          title: 'Delete a program you published',
          request: { method: 'DELETE', path: '/api/items/w3d', withToken: true },
          response: { status: 200, body: { code: 'w3d', address: 'w3d', deleted: true } },
        },
      ],
      notes: ['Without a token: 401 UNAUTHENTICATED. Deleting a work twice: 410 ITEM_REMOVED.'],
      since: '1.1.0',
    },
  ];
}
