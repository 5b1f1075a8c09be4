import { AppError } from '../app-error.js';
import { CHAT_SEARCH_MAX, type ChatEntry } from '../operations/chat/index.js';
import {
  type ChatRemoval,
  type LiveChatEvent,
  subscribeChatMessages,
} from '../operations/chat/live/index.js';
import type { LiveFeed } from '../operations/chat/live/subscriber.js';
import { runOperation } from '../operations/operation.js';
import { builder } from './builder.js';
import { ChatInstance, ChatMessage } from './chat.js';

const ChatMessageRemoval = builder.objectRef<ChatRemoval>('ChatMessageRemoval').implement({
  description: 'A chat message that was marked deleted.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    instance: t.exposeString('instance', {
      nullable: false,
      description: 'The channel of the message: system or clock.',
    }),
  }),
});

/** An event of the feed, or the error that ended it (given to the client as a field error). */
export type Delivery<T> = T | AppError;

/**
 * The events of one kind from a feed. `return()` ends the feed at once, even while a `next()`
 * waits (an async generator would wait for that `next()` first, holding the subscriber until
 * the next message). A feed that fails ends with its error as the last delivery.
 */
export function deliveries<T, E = LiveChatEvent>(
  feed: LiveFeed<E>,
  pick: (event: E) => T | undefined,
): AsyncIterableIterator<Delivery<T>> {
  let ended = false;
  const iterator: AsyncIterableIterator<Delivery<T>> = {
    async next() {
      while (!ended) {
        try {
          const result = await feed.next();
          if (result.done) break;
          const value = pick(result.value);
          if (value !== undefined) return { value, done: false };
        } catch (error) {
          ended = true;
          return { value: error instanceof AppError ? error : (error as T), done: false };
        }
      }
      ended = true;
      return { value: undefined, done: true };
    },
    async return() {
      ended = true;
      await feed.return();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

export function delivered<T>(delivery: Delivery<T>): T {
  if (delivery instanceof AppError) throw delivery;
  return delivery;
}

builder.subscriptionFields((t) => ({
  chatMessageAdded: t.field({
    type: ChatMessage,
    nullable: false,
    description:
      'Each new public chat message as it is stored, over Server-Sent Events (POST /graphql with Accept: text/event-stream, the graphql-sse protocol). With `after` (a cursor of chatMessages), every message after it comes first, in order. A subscriber that falls behind ends with SUBSCRIBER_BEHIND and `resumeAfter`, the cursor to pass as `after` next.',
    args: {
      instance: t.arg({ type: ChatInstance, description: 'system (default), clock or all.' }),
      search: t.arg.string({
        description: `Only messages whose text holds this, case-insensitively (at most ${CHAT_SEARCH_MAX} characters).`,
      }),
      from: t.arg.string({ description: 'Only messages by this @handle (the @ is optional).' }),
      after: t.arg.string({
        description:
          'A cursor (of chatMessages, or resumeAfter): first every message after it, then the live ones.',
      }),
    },
    subscribe: async (_root, args, ctx) =>
      deliveries<ChatEntry>(await runOperation(subscribeChatMessages, ctx, args), (event) =>
        event.type === 'added' ? event.message : undefined,
      ) as unknown as AsyncIterable<ChatEntry>,
    resolve: (delivery) => delivered(delivery as Delivery<ChatEntry>),
  }),
  chatMessageRemoved: t.field({
    type: ChatMessageRemoval,
    nullable: false,
    description:
      'Each public chat message marked deleted, as it happens. Only databases with change streams report removals; on others (a standalone mongod) this subscription stays silent.',
    args: {
      instance: t.arg({ type: ChatInstance, description: 'system (default), clock or all.' }),
    },
    subscribe: async (_root, args, ctx) =>
      deliveries<ChatRemoval>(
        await runOperation(subscribeChatMessages, ctx, { instance: args.instance }),
        (event) => (event.type === 'removed' ? event.removal : undefined),
      ) as unknown as AsyncIterable<ChatRemoval>,
    resolve: (delivery) => delivered(delivery as Delivery<ChatRemoval>),
  }),
}));
