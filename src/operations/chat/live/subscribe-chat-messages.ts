import type { RequestContext } from '../../../context.js';
import { tracedDeliveries } from '../../../telemetry/stream-spans.js';
import { defineOperation } from '../../operation.js';
import { type ChatPosition, encodeChatCursor } from '../cursor.js';
import { type ChatStreamInput, channelsOf, chatStreamInput } from '../inputs.js';
import { chatLoaders } from '../loaders.js';
import { type ChatEntry, escapeRegExp, readChatWindow } from '../read-window.js';
import type { LiveChatEvent } from './events.js';
import { presentEntries } from './present.js';
import { replayThenLive } from './replay.js';
import type { ChatFeed, Subscriber } from './subscriber.js';

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
    if (!input.after) return tracedDeliveries(subscriber, 'chat.live', ctx.services.trace);
    return tracedDeliveries(
      await replayThenLiveMessages(ctx, input, input.after, subscriber),
      'chat.live',
      ctx.services.trace,
    );
  },
});

/** Every message after `after`, as the subscriber's filters select them, then the live ones. */
function replayThenLiveMessages(
  ctx: RequestContext,
  input: ChatStreamInput,
  after: ChatPosition,
  live: Subscriber,
): Promise<ChatFeed> {
  return replayThenLive<ChatEntry, ChatPosition, LiveChatEvent>(
    {
      read: async (position, size) =>
        presentEntries(
          ctx.services.db,
          await readChatWindow(ctx, {
            channels: channelsOf(input.instance),
            search: input.search,
            from: input.from,
            newerThan: position,
            end: 'oldest',
            size,
          }),
        ),
      positionOf: (message) => ({ when: message.when, id: message._id }),
      cursorOf: encodeChatCursor,
      idOf: (message) => message.id,
      liveIdOf: (event) => (event.type === 'added' ? event.message.id : undefined),
      event: (message, cursor) => ({ type: 'added', cursor, message }),
      what: 'messages',
    },
    after,
    live,
  );
}
