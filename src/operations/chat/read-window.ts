import type { Document, ObjectId } from 'mongodb';
import { type RequestContext, withinScope } from '../../context.js';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { collectionNames } from '../../db/collections.js';
import { annotate, searchTermAttributes } from '../../telemetry/active-span.js';
import { escapeRegExp } from '../search-term.js';
import type { ChatEntry } from './chat-entry.js';
import type { ChatPosition } from './cursor.js';
import type { ChatChannel } from './inputs.js';
import { chatLoaders } from './loaders.js';

export type { ChatEntry } from './chat-entry.js';

/** A bound is a time (REST `before`) or a (when, _id) position (GraphQL cursors). */
export type ChatBound = Pick<ChatPosition, 'when'> & Partial<ChatPosition>;

export interface ChatWindow {
  channels: readonly ChatChannel[];
  search?: string | undefined;
  /** A handle without `@`; an unknown one gives an empty window. */
  from?: string | undefined;
  olderThan?: ChatBound | undefined;
  newerThan?: ChatBound | undefined;
  /** Read from the newest end (rows newest first) or the oldest end (rows oldest first). */
  end: 'newest' | 'oldest';
  size: number;
}

const collectionOf: Record<ChatChannel, string> = {
  system: collectionNames.chatSystem,
  clock: collectionNames.chatClock,
};

export { escapeRegExp };

function chatFilter(window: ChatWindow, user: string | undefined): Document {
  const filter: Document = { deleted: { $ne: true } };
  if (user !== undefined) filter.user = user;
  if (window.search) filter.text = { $regex: escapeRegExp(window.search), $options: 'i' };
  const when: Document = {};
  const ties: Document[] = [];
  for (const [op, bound] of [
    ['$lt', window.olderThan],
    ['$gt', window.newerThan],
  ] as const) {
    if (!bound) continue;
    if (!bound.id) {
      when[op] = bound.when;
      continue;
    }
    // `$lte`/`$gte` on `when` bounds the index scan; the `$or` breaks ties by _id.
    when[op === '$lt' ? '$lte' : '$gte'] = bound.when;
    ties.push({ $or: [{ when: { [op]: bound.when } }, { _id: { [op]: bound.id } }] });
  }
  if (Object.keys(when).length > 0) filter.when = when;
  if (ties.length === 1) Object.assign(filter, ties[0]);
  if (ties.length > 1) filter.$and = ties;
  return filter;
}

const sortOf = (window: ChatWindow) => {
  const direction = window.end === 'newest' ? -1 : 1;
  return { when: direction, _id: direction } as const;
};

function channelPipeline(
  channel: ChatChannel,
  window: ChatWindow,
  user: string | undefined,
): Document[] {
  return [
    { $match: chatFilter(window, user) },
    { $sort: sortOf(window) },
    { $limit: window.size },
    { $project: { user: 1, text: 1, when: 1, instance: { $literal: channel } } },
  ];
}

/**
 * ONE command per window whatever the channels: a find for one channel; for both, an
 * aggregation where the second channel joins through `$unionWith` and the merge keeps the
 * (when, _id) order across them.
 */
export function readChatWindow(ctx: RequestContext, window: ChatWindow): Promise<ChatEntry[]> {
  // A search scans messages: only so many run at once (CHAT_SEARCH_CONCURRENCY); a cached page never gets here.
  if (window.search) annotate(ctx.services.trace, searchTermAttributes(window.search));
  return window.search
    ? ctx.services.chatSearches.run(
        (scope) => readWindow(scope ? withinScope(ctx, scope) : ctx, window),
        ctx.services.trace,
      )
    : readWindow(ctx, window);
}

async function readWindow(ctx: RequestContext, window: ChatWindow): Promise<ChatEntry[]> {
  const user =
    window.from === undefined
      ? undefined
      : ((await chatLoaders(ctx).accounts.load(window.from))[0] ?? null);
  if (user === null) return [];
  const { chat } = ctx.services.db;
  // One batch larger than the window, so the server closes the cursor and no getMore follows.
  const batchSize = window.size + 1;
  const [first, ...others] = window.channels;
  if (!first) return [];
  if (others.length === 0) {
    const rows = await chat[first]
      .find(chatFilter(window, user), {
        sort: sortOf(window),
        limit: window.size,
        batchSize,
        projection: { user: 1, text: 1, when: 1 },
        maxTimeMS: QUERY_TIME_LIMIT_MS,
      })
      .toArray();
    return rows.map((row) => toEntry({ ...row, instance: first }));
  }
  const pipeline = [
    ...channelPipeline(first, window, user),
    ...others.map((channel) => ({
      $unionWith: { coll: collectionOf[channel], pipeline: channelPipeline(channel, window, user) },
    })),
    { $sort: sortOf(window) },
    { $limit: window.size },
  ];
  const rows = await chat[first]
    .aggregate(pipeline, { batchSize, maxTimeMS: QUERY_TIME_LIMIT_MS })
    .toArray();
  return rows.map(toEntry);
}

/** A stored message as every chat read answers it, tagged with its channel (`row.instance`). */
export function toEntry(row: Document): ChatEntry {
  return {
    _id: row._id as ObjectId,
    id: String(row._id),
    user: typeof row.user === 'string' && row.user !== '' ? row.user : undefined,
    text: typeof row.text === 'string' ? row.text : '',
    when: row.when as Date,
    instance: row.instance as ChatChannel,
  };
}
