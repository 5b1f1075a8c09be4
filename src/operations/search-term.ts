import { z } from 'zod';
import { optional } from './validation.js';

/**
 * A search term as the chat and the works search take it: a case-insensitive literal
 * substring, matched by a `$regex` with the `i` option (docs/contract.md, Limits).
 */

/** The term as a pattern that matches only itself: every regular-expression character escaped. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The stored-field filter of a term: a plain `$regex` with `i`, which an index on the field can serve. */
export const literalMatch = (term: string) => ({ $regex: escapeRegExp(term), $options: 'i' });

/**
 * The `search` field: trimmed, at most `max` characters (over it: SEARCH_TOO_LONG by the field's
 * name); blank means no search (undefined). `what` names it in the messages.
 */
export const searchTermField = (max: number, what = 'search') =>
  optional(
    z
      .string({ error: `${what} must be a string.` })
      .trim()
      .max(max, `${what} is longer than ${max} characters.`),
  ).transform((text) => text || undefined);
