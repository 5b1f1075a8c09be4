import type { RequestContext } from '../../context.js';
import {
  createSharedCache,
  CHAT_CACHE_MAX_ENTRIES,
  CHAT_CACHE_TTL_MS,
  type SharedCache,
} from './cache.js';
import {
  channelsOf,
  type ChatChannel,
  type ChatInstance,
  type ListChatMessagesInput,
} from './inputs.js';
import { heartsOf, senderOf, type ChatLoaders } from './loaders.js';
import { readChatWindow, type ChatEntry } from './read-window.js';

export interface ChatMessage {
  id: string;
  from: string;
  text: string;
  when: string;
  instance: ChatChannel;
  hearts: number;
}

export interface ChatPage {
  instance: ChatInstance;
  search?: string;
  count: number;
  messages: ChatMessage[];
  nextBefore: string | null;
}

export type ChatCache = SharedCache<ChatPage>;

export const createChatCache = (options: { max?: number; ttlMs?: number } = {}): ChatCache =>
  createSharedCache<ChatPage>({
    max: options.max ?? CHAT_CACHE_MAX_ENTRIES,
    ttlMs: options.ttlMs ?? CHAT_CACHE_TTL_MS,
  });

/** The spec's key plus `from` (contract section 5), so one handle's page never answers another query. */
export const chatPageKey = (input: ListChatMessagesInput) =>
  JSON.stringify([
    input.instance,
    input.limit,
    input.before?.toISOString() ?? null,
    input.search ?? null,
    input.from ?? null,
  ]);

/** GET /api/chat-messages: one page before `before`, oldest first (newest first when searching), cached 120 s. */
export function listChatMessages(
  ctx: RequestContext,
  input: ListChatMessagesInput,
): Promise<ChatPage> {
  return ctx.services.chatCache.read(chatPageKey(input), () => readChatPage(ctx, input));
}

async function readChatPage(ctx: RequestContext, input: ListChatMessagesInput): Promise<ChatPage> {
  const newestFirst = await readChatWindow(ctx, {
    channels: channelsOf(input.instance),
    search: input.search,
    from: input.from,
    olderThan: input.before && { when: input.before },
    end: 'newest',
    size: input.limit,
  });
  const messages = await presentMessages(ctx.loaders, newestFirst);
  return {
    instance: input.instance,
    ...(input.search ? { search: input.search } : {}),
    count: messages.length,
    messages: input.search ? messages : messages.reverse(),
    nextBefore: newestFirst.at(-1)?.when.toISOString() ?? null,
  };
}

/** Both loads of every message start at once, so each loader sends one command for the page. */
function presentMessages(loaders: ChatLoaders, entries: ChatEntry[]): Promise<ChatMessage[]> {
  return Promise.all(
    entries.map(async (entry) => {
      const [from, hearts] = await Promise.all([
        senderOf(loaders, entry.user),
        heartsOf(loaders, entry),
      ]);
      return {
        id: entry.id,
        from,
        text: entry.text,
        when: entry.when.toISOString(),
        instance: entry.instance,
        hearts,
      };
    }),
  );
}
