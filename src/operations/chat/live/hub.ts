import { AppError } from '../../../app-error.js';
import type { Database } from '../../../db/client.js';
import type { Logger } from '../../../logger.js';
import type { ChatEntry } from '../chat-entry.js';
import { encodeChatCursor } from '../cursor.js';
import type { ChatChannel } from '../inputs.js';
import { changeStreamSource } from './change-stream-source.js';
import type { ChatHub, LiveChatMode } from './chat-hub.js';
import type { ChatFeedSource, ChatRemoval, ChatSink } from './events.js';
import { pollingSource } from './polling-source.js';
import { presentEntries } from './present.js';
import { Subscriber } from './subscriber.js';

export interface ChatHubOptions {
  db: Database;
  logger: Logger;
  mode: LiveChatMode;
  pollIntervalMs: number;
  subscribersMax: number;
  subscribersPerClient: number;
  /** Events buffered per subscriber (SUBSCRIBER_BUFFER_DEFAULT when absent). */
  bufferMax?: number;
}

export const SUBSCRIBER_BUFFER_DEFAULT = 256;
const PRESENT_RETRY_MS = 500;

interface Channel {
  source: ChatFeedSource;
  subscribers: Set<Subscriber>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createChatHub(options: ChatHubOptions): ChatHub {
  const { db, logger, mode } = options;
  const bufferMax = options.bufferMax ?? SUBSCRIBER_BUFFER_DEFAULT;
  const channels = new Map<ChatChannel, Channel>();
  const perClient = new Map<string, number>();
  let total = 0;
  let closed = false;

  /** Handles and hearts are read once per batch; while the database is away, the batch waits. */
  async function present(entries: ChatEntry[]): Promise<ChatEntry[]> {
    for (;;) {
      try {
        return await presentEntries(db, entries);
      } catch (error) {
        if (closed) return entries;
        logger.warn({ err: error }, 'live chat could not read handles and hearts; retrying');
        await sleep(PRESENT_RETRY_MS);
      }
    }
  }

  function sinkOf(channel: ChatChannel): ChatSink {
    const subscribersOf = () => channels.get(channel)?.subscribers ?? new Set<Subscriber>();
    return {
      async added(entries) {
        for (const message of await present(entries)) {
          const event = {
            type: 'added' as const,
            cursor: encodeChatCursor({ when: message.when, id: message._id }),
            message,
          };
          for (const subscriber of subscribersOf()) subscriber.deliver(event);
        }
      },
      async removed(removals: ChatRemoval[]) {
        for (const removal of removals)
          for (const subscriber of subscribersOf())
            subscriber.deliver({ type: 'removed', removal });
      },
    };
  }

  function startSource(channel: ChatChannel): ChatFeedSource {
    const collection = db.chat[channel];
    return mode === 'change-stream'
      ? changeStreamSource({ collection, channel, logger }, sinkOf(channel))
      : pollingSource(
          { collection, channel, intervalMs: options.pollIntervalMs, logger },
          sinkOf(channel),
        );
  }

  function leave(subscriber: Subscriber): void {
    total -= 1;
    const held = (perClient.get(subscriber.clientKey) ?? 1) - 1;
    if (held > 0) perClient.set(subscriber.clientKey, held);
    else perClient.delete(subscriber.clientKey);
    for (const name of subscriber.channels) {
      const channel = channels.get(name);
      if (!channel?.subscribers.delete(subscriber) || channel.subscribers.size > 0) continue;
      channels.delete(name);
      void channel.source.stop();
    }
  }

  function admit(clientKey: string): void {
    if (closed)
      throw new AppError('SUBSCRIBERS_FULL', 'The service is shutting down; reconnect shortly.');
    if ((perClient.get(clientKey) ?? 0) >= options.subscribersPerClient)
      throw new AppError(
        'TOO_MANY_STREAMS',
        `A client may hold ${options.subscribersPerClient} live chat streams at once; close one first.`,
        { limit: options.subscribersPerClient },
      );
    if (total >= options.subscribersMax)
      throw new AppError(
        'SUBSCRIBERS_FULL',
        'Every live chat stream of this service is taken; try again shortly.',
      );
  }

  return {
    mode,
    async subscribe(request) {
      admit(request.clientKey);
      total += 1;
      perClient.set(request.clientKey, (perClient.get(request.clientKey) ?? 0) + 1);
      const subscriber = new Subscriber({ ...request, bufferMax, onEnd: leave });
      const sources = request.channels.map((name) => {
        let channel = channels.get(name);
        if (!channel) {
          channel = { source: startSource(name), subscribers: new Set() };
          channels.set(name, channel);
        }
        channel.subscribers.add(subscriber);
        return channel.source;
      });
      try {
        await Promise.all(sources.map((source) => source.ready));
      } catch (error) {
        // A source that could not start is dropped, so the next subscriber starts a new one;
        // every subscriber that waited for it fails the same way.
        for (const [index, name] of request.channels.entries()) {
          const source = sources[index] as ChatFeedSource;
          const failed = await source.ready.then(
            () => false,
            () => true,
          );
          if (failed && channels.get(name)?.source === source) channels.delete(name);
        }
        subscriber.end(null);
        throw error;
      }
      return subscriber;
    },
    counts: () => ({ subscribers: total, sources: channels.size }),
    async close() {
      closed = true;
      const running = [...channels.values()];
      for (const channel of running)
        for (const subscriber of channel.subscribers) subscriber.end(null);
      await Promise.all(running.map((channel) => channel.source.stop()));
    },
  };
}
