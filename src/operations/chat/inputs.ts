import { z } from 'zod';
import { parseIsoTimestamp } from '../../domain/iso-time.js';
import { searchTermField } from '../search-term.js';
import { blankToUndefined, cursorField, failWith, optional, pageSizeField } from '../validation.js';
import { decodeChatCursor } from './cursor.js';

export const CHAT_CHANNELS = ['system', 'clock'] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];
export const CHAT_INSTANCES = [...CHAT_CHANNELS, 'all'] as const;
export type ChatInstance = (typeof CHAT_INSTANCES)[number];

export const CHAT_LIMIT_DEFAULT = 50;
export const CHAT_LIMIT_MAX = 100;
export const CHAT_SEARCH_MAX = 200;
const CHAT_HANDLE_MAX = 64;

export const channelsOf = (instance: ChatInstance): readonly ChatChannel[] =>
  instance === 'all' ? CHAT_CHANNELS : [instance];

const instance = z.preprocess(
  blankToUndefined,
  z.enum(CHAT_INSTANCES, { error: 'instance must be system, clock or all.' }).default('system'),
);

/** REST `limit` starts at 1; a Relay `first`/`last` of 0 asks for an empty page (only negatives are errors). */
const pageSize = (field: string, min: 0 | 1 = 1) =>
  pageSizeField(field, { min, max: CHAT_LIMIT_MAX });

const before = z
  .string({ error: 'before must be an ISO-8601 timestamp.' })
  .transform((text, ctx) => {
    const time = parseIsoTimestamp(text);
    if (time) return time;
    failWith(
      ctx,
      'BEFORE_INVALID',
      'before must be an ISO-8601 timestamp (e.g. 2026-04-20T00:00:00Z).',
    );
    return z.NEVER;
  });

/** Trimmed; blank means no search. */
const search = searchTermField(CHAT_SEARCH_MAX);

/** A handle with or without its `@`, as stored in `@handles` (without it). */
const from = optional(
  z
    .string({ error: 'from must be a handle such as @jeffrey.' })
    .trim()
    .regex(
      new RegExp(`^@?[\\p{L}\\p{N}._-]{1,${CHAT_HANDLE_MAX}}$`, 'u'),
      'from must be a handle such as @jeffrey.',
    )
    .transform((text) => text.replace(/^@/, '')),
);

const chatCursor = (field: string) => cursorField(field, decodeChatCursor);

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** `q` is the alias of `search`; a non-blank `search` wins. */
const withSearchAlias = (value: unknown) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { q, ...rest } = value as Record<string, unknown>;
  return isBlank(rest.search) && !isBlank(q) ? { ...rest, search: q } : rest;
};

/** GET /api/chat-messages: instance, limit, before, search (or q), from. */
export const listChatMessagesInput = z.preprocess(
  withSearchAlias,
  z.object({
    instance,
    limit: z.preprocess(blankToUndefined, pageSize('limit').default(CHAT_LIMIT_DEFAULT)),
    before: optional(before),
    search,
    from,
  }),
);

/** The GraphQL connection: the same filters, paged by cursors over (when, _id). */
export const chatConnectionInput = z.object({
  instance,
  search,
  from,
  first: optional(pageSize('first', 0)),
  last: optional(pageSize('last', 0)),
  after: optional(chatCursor('after')),
  before: optional(chatCursor('before')),
});

/** The live feed: the same filters, and the cursor to resume after (REST: `Last-Event-ID`). */
export const chatStreamInput = z.object({
  instance,
  search,
  from,
  after: optional(chatCursor('after')),
});

export type ChatStreamInput = z.output<typeof chatStreamInput>;
export type ListChatMessagesInput = z.output<typeof listChatMessagesInput>;
export type ChatConnectionInput = z.output<typeof chatConnectionInput>;
