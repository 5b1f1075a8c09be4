import { z } from 'zod';
import { ITEM_KINDS } from '../../domain/item-kinds.js';

/**
 * What `GET /api/items/<code>` and the MCP tool `get_item` answer: the facts GraphQL's `item`
 * gives, as JSON. Zod only, so the stdio MCP package can load it without database code.
 */
export const itemFactsSchema = z.object({
  kind: z.enum(ITEM_KINDS).describe('kidlisp, clock, piece, painting or tape.'),
  code: z.string().describe('The short code (without clock~).'),
  address: z
    .string()
    .describe('What to look the item up by: clock~<code> for a clock melody, else the code.'),
  url: z.string().describe('Where the item is viewed (or played).'),
  when: z.string().describe('ISO time it was published.'),
  hits: z
    .number()
    .int()
    .describe('Distinct clients that published or read it through the API (popularity).'),
  author: z.string().nullable().describe('@handle of its author; null when anonymous or unknown.'),
  source: z
    .string()
    .nullable()
    .describe('KidLisp or melody source, or the piece source when the service keeps it.'),
  mediaUrl: z
    .string()
    .nullable()
    .describe('The stored file ({base_url}/<code>.<ext>) of a piece, painting or tape.'),
  ext: z
    .string()
    .nullable()
    .describe('Extension of the stored file: mjs, lisp, lua, png, zip, mp4.'),
  name: z.string().nullable().describe('Name given to a piece.'),
  duration: z.number().nullable().describe('Tape duration in seconds, when known.'),
  remixOf: z
    .string()
    .nullable()
    .describe(
      'The code of the work it was remixed from (clock~<code> for a melody); null for an original.',
    ),
});

export type ItemFacts = z.output<typeof itemFactsSchema>;
