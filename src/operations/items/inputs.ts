import { z } from 'zod';
import { searchTermField } from '../search-term.js';
import { cursorField, failWith, pageSizeField } from '../validation.js';
import { decodeListCursor, decodePublishedCursor } from './cursor.js';
import { ITEM_KINDS } from './item.js';

export const CODES_MAX = 50;
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
export const PUBLISHED_SORTS = ['recent', 'hits'] as const;
/** A search also sorts by relevance (docs/contract.md, Searching works). */
export const SEARCH_SORTS = [...PUBLISHED_SORTS, 'relevance'] as const;
export const WORKS_SEARCH_MAX = 200;
const HANDLE_MAX = 64;

/** One code (or `clock~<code>`), as sent: a code nothing has answers "not found", never a 400. */
export const codeField = z
  .string({ error: 'code must be a string.' })
  .trim()
  .min(1, 'code is empty.')
  .max(200, 'code is longer than 200 characters.');

/** A page size from a query string or a number: 1..max; over max is LIMIT_TOO_LARGE. */
export const pageSize = (field: string, max: number) => pageSizeField(field, { max });

/** `@jeffrey` or `jeffrey`, as stored in `@handles` (without the `@`). */
export const handleField = (field: string) =>
  z
    .string({ error: `${field} must be a handle such as @jeffrey.` })
    .trim()
    .transform((text) => text.replace(/^@/, ''))
    .superRefine((text, ctx) => {
      if (!new RegExp(`^[\\p{L}\\p{N}._-]{1,${HANDLE_MAX}}$`, 'u').test(text))
        failWith(ctx, 'HANDLE_INVALID', `${field} must be a handle such as @jeffrey.`);
    });

/** A sort name in any case; blank is absent. */
const sortName = <const S extends readonly [string, ...string[]]>(sorts: S, message: string) =>
  z.preprocess(
    (value) =>
      value === '' || value === null
        ? undefined
        : typeof value === 'string'
          ? value.trim().toLowerCase()
          : value,
    z.enum(sorts, { error: message }).optional(),
  );

/** `recent` (the default) or `hits`, any case; anything else is SORT_INVALID. */
export const sortParam = sortName(PUBLISHED_SORTS, 'sort must be recent or hits.').transform(
  (sort): (typeof PUBLISHED_SORTS)[number] => sort ?? 'recent',
);

/** A search's sort: `recent`, `hits` or `relevance`; absent is decided with the term (defaultSort). */
export const searchSortParam = sortName(SEARCH_SORTS, 'sort must be recent, hits or relevance.');

/** The works search term (`search`): at most 200 characters, else SEARCH_TOO_LONG; blank is none. */
export const worksSearchField = searchTermField(WORKS_SEARCH_MAX, 'The search term');

export const kindField = z.enum(ITEM_KINDS, {
  error: `kind must be one of ${ITEM_KINDS.join(', ')}.`,
});

/** A list of codes: an array, a JSON array string or comma-separated text; 1..50 codes, order kept. */
export const codesField = z.unknown().transform((value, ctx): string[] => {
  let list: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        list = JSON.parse(text);
      } catch {
        failWith(ctx, 'CODES_INVALID', 'Invalid codes format. Use comma-separated or JSON array.');
        return z.NEVER;
      }
    } else {
      list =
        text === ''
          ? []
          : text
              .split(',')
              .map((code) => code.trim())
              .filter(Boolean);
    }
  }
  if (!Array.isArray(list) || !list.every((code) => typeof code === 'string')) {
    failWith(ctx, 'CODES_INVALID', 'Invalid codes format. Use comma-separated or JSON array.');
    return z.NEVER;
  }
  if (list.length === 0) {
    failWith(ctx, 'CODES_INVALID', 'Codes must be a non-empty array');
    return z.NEVER;
  }
  if (list.length > CODES_MAX) {
    failWith(ctx, 'TOO_MANY_CODES', `Too many codes. Maximum ${CODES_MAX} per request.`, {
      max: CODES_MAX,
    });
    return z.NEVER;
  }
  return list.map((code) => code.trim());
});

/** A cursor of a `published` page, for the sort it was issued under. */
export const publishedCursor = (field: string) => cursorField(field, decodePublishedCursor);

/** A REST or MCP list page's `cursor` (its nextCursor or previousCursor). */
export const listCursor = (field: string) => cursorField(field, decodeListCursor);
