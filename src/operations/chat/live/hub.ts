import type { Database } from '../../../db/client.js';
import type { Logger } from '../../../logger.js';
import type { ChatEntry } from '../chat-entry.js';
import { encodeChatCursor } from '../cursor.js';
import type { ChatChannel } from '../inputs.js';
import { createAdmission } from './admission.js';
import { changeStreamSource } from './change-stream-source.js';
import type { ChatHub, LiveChatMode } from './chat-hub.js';
import type { ChatFeedSource, ChatRemoval, ChatSink } from './events.js';
import { pollingSource } from './polling-source.js';
import { presentEntries } from './present.js';
import { storedEntry } from './stored-entry.js';
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
/** The fields of a chat message that live subscribers read. */
const CHAT_PROJECTION = { user: 1, text: 1, when: 1 } as const;
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
  const admission = createAdmission(options, 'live chat streams');
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
          {
            collection,
            label: `chat-${channel}`,
            projection: CHAT_PROJECTION,
            toEntry: (row) => storedEntry(row, channel),
            intervalMs: options.pollIntervalMs,
            logger,
          },
          sinkOf(channel),
        );
  }

  function leave(subscriber: Subscriber): void {
    admission.leave(subscriber.clientKey);
    for (const name of subscriber.channels) {
      const channel = channels.get(name);
      if (!channel?.subscribers.delete(subscriber) || channel.subscribers.size > 0) continue;
      channels.delete(name);
      void channel.source.stop();
    }
  }

  return {
    mode,
    async subscribe(request) {
      admission.admit(request.clientKey);
      const subscriber = new Subscriber({
        ...request,
        bufferMax,
        onEnd: leave,
        accepts: (event) => {
          const entry = event.type === 'added' ? event.message : event.removal.entry;
          return !entry || request.matches(entry);
        },
        cursorOf: (event) => (event.type === 'added' ? event.cursor : undefined),
      });
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
    counts: () => ({ subscribers: admission.total, sources: channels.size }),
    async close() {
      closed = true;
      admission.close();
      const running = [...channels.values()];
      for (const channel of running)
        for (const subscriber of channel.subscribers) subscriber.end(null);
      await Promise.all(running.map((channel) => channel.source.stop()));
    },
  };
}
