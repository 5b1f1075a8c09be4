import { AppError } from '../../../app-error.js';
import type { RequestContext } from '../../../context.js';
import { tracedDeliveries } from '../../../telemetry/stream-spans.js';
import { defineOperation } from '../../operation.js';
import { type ChatPosition, encodeChatCursor } from '../cursor.js';
import { type ChatStreamInput, channelsOf, chatStreamInput } from '../inputs.js';
import { chatLoaders } from '../loaders.js';
import { type ChatEntry, escapeRegExp, readChatWindow } from '../read-window.js';
import type { LiveChatEvent } from './events.js';
import { presentEntries } from './present.js';
import type { ChatFeed, Subscriber } from './subscriber.js';

/** Messages read back per round trip after a reconnect. */
const REPLAY_PAGE = 100;
/**
 * Most messages replayed on one connection; a subscriber further behind gets these, then
 * SUBSCRIBER_BEHIND with the cursor to reconnect after, and continues on its next connection.
 */
export const REPLAY_MAX = 1_000;

/**
 * New chat messages as they are stored, for as long as the caller reads. With `after` (a cursor
 * of a message the client already has), every message after it is read back from the collection
 * first, in `(when, _id)` order, then the live ones follow, none twice. Removals come only
 * where the database has change streams, and are not replayed.
 */
export const subscribeChatMessages = defineOperation({
  name: 'subscribeChatMessages',
  input: chatStreamInput,
  async run(ctx: RequestContext, input: ChatStreamInput): Promise<ChatFeed> {
    const user =
      input.from === undefined
        ? undefined
        : ((await chatLoaders(ctx).accounts.load(input.from))[0] ?? null);
    const pattern = input.search ? new RegExp(escapeRegExp(input.search), 'i') : undefined;
    const matches = (entry: ChatEntry) =>
      user !== null &&
      (user === undefined || entry.user === user) &&
      (!pattern || pattern.test(entry.text));
    const subscriber = await ctx.services.chatHub.subscribe({
      channels: channelsOf(input.instance),
      clientKey: ctx.clientKey,
      matches,
      startCursor: input.after && encodeChatCursor(input.after),
    });
    if (!input.after) return tracedDeliveries(subscriber, 'chat.live');
    try {
      return tracedDeliveries(
        await replayThenLive(ctx, input, input.after, subscriber),
        'chat.live',
      );
    } catch (error) {
      await subscriber.return();
      throw error;
    }
  },
});

/**
 * Reads the first page of the replay before answering (so a database that is away answers
 * 503 before the stream starts); the live events buffered meanwhile follow the replay, without
 * the messages the replay already gave.
 */
async function replayThenLive(
  ctx: RequestContext,
  input: ChatStreamInput,
  after: ChatPosition,
  live: Subscriber,
): Promise<ChatFeed> {
  const replayed = new Set<string>();
  let position = after;
  let pending: ChatEntry[] = [];
  let exhausted = false;
  let finished = false;

  async function readPage(): Promise<void> {
    const rows = await readChatWindow(ctx, {
      channels: channelsOf(input.instance),
      search: input.search,
      from: input.from,
      newerThan: position,
      end: 'oldest',
      size: REPLAY_PAGE,
    });
    exhausted = rows.length < REPLAY_PAGE;
    pending = await presentEntries(ctx.services.db, rows);
  }
  await readPage();

  const feed: ChatFeed = {
    async next(): Promise<IteratorResult<LiveChatEvent>> {
      if (finished) return { value: undefined, done: true };
      if (pending.length === 0 && !exhausted) {
        if (replayed.size >= REPLAY_MAX) {
          await feed.return();
          throw new AppError(
            'SUBSCRIBER_BEHIND',
            `More than ${REPLAY_MAX} messages were missed; reconnect after the last one to read on.`,
            { resumeAfter: encodeChatCursor(position) },
          );
        }
        await readPage();
      }
      const message = pending.shift();
      if (message) {
        replayed.add(message.id);
        position = { when: message.when, id: message._id };
        return {
          value: { type: 'added', cursor: encodeChatCursor(position), message },
          done: false,
        };
      }
      for (;;) {
        const result = await live.next();
        if (result.done) return result;
        const event = result.value;
        if (event.type === 'added' && replayed.has(event.message.id)) continue;
        return result;
      }
    },
    async return() {
      finished = true;
      return live.return();
    },
    [Symbol.asyncIterator]() {
      return feed;
    },
  };
  return feed;
}
