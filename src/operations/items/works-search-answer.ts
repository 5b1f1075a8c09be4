import { z } from 'zod';
import { ITEM_KINDS } from '../../domain/item-kinds.js';
import { itemFactsSchema } from './item-facts.js';

/**
 * What `GET /api/items` and the MCP tool `search_works` answer, and what the tool takes. Zod
 * only, so the stdio MCP package can load it without database code.
 */

export const foundWorkSchema = itemFactsSchema.extend({
  excerpt: z
    .string()
    .nullable()
    .describe(
      'About 120 characters of the name, slug or source around the first match (… where cut); null without a search term.',
    ),
});

/** Where a REST list page sits in its list: the one list shape of the service (docs/contract.md). */
export const pageInfoSchema = z.object({
  hasPreviousPage: z.boolean().describe('More lie up the list (newer, or more hits).'),
  hasNextPage: z.boolean().describe('More lie down the list (older, or fewer hits).'),
  startCursor: z
    .string()
    .nullable()
    .describe('Pass as before for the page above; null when the page is empty.'),
  endCursor: z
    .string()
    .nullable()
    .describe('Pass as after for the page below; null when the page is empty.'),
});

export const worksSearchAnswerSchema = z.object({
  items: z.array(foundWorkSchema).describe('The works of this page, in list order.'),
  pageInfo: pageInfoSchema.describe('Where the page sits in the list, and the cursors to page on.'),
  count: z.number().int().describe('Deprecated (until 1.3): works in this page; items.length.'),
  nextCursor: z
    .string()
    .nullable()
    .describe(
      'Deprecated (until 1.3; use pageInfo.endCursor as after): pass as cursor for the page after this one; null at the end of the list.',
    ),
  previousCursor: z
    .string()
    .nullable()
    .describe(
      'Deprecated (until 1.3; use pageInfo.startCursor as before): pass as cursor for the page before this one; null on the first page.',
    ),
});

export type FoundWork = z.output<typeof foundWorkSchema>;
export type WorksSearchAnswer = z.output<typeof worksSearchAnswerSchema>;

/** The MCP tool's arguments; the service's own input (search-works.ts) enforces the limits. */
export const searchWorksToolInput = z.object({
  query: z
    .string()
    .describe(
      'Text to find (at most 200 characters): a case-insensitive literal substring of KidLisp or piece source, a melody, a piece name or a media slug. Empty lists every work.',
    ),
  kind: z.enum(ITEM_KINDS).optional().describe('Only this kind.'),
  handle: z.string().optional().describe('Only works of this @handle.'),
  sort: z
    .enum(['relevance', 'recent', 'hits'])
    .optional()
    .describe(
      'relevance (the default with a query: name or slug matches first, then most hits, then newest), recent or hits.',
    ),
  limit: z.number().int().optional().describe('Works per page, 1 to 100 (default 50).'),
  cursor: z.string().optional().describe('nextCursor or previousCursor of a previous answer.'),
});
