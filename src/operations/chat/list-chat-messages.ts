import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import type { ChatMessage, ChatPage } from './chat-page.js';
import { channelsOf, type ListChatMessagesInput, listChatMessagesInput } from './inputs.js';
import { type ChatLoaders, chatLoaders, heartsOf, senderOf } from './loaders.js';
import { type ChatEntry, readChatWindow } from './read-window.js';

/** Instance, limit, before, search and `from` (docs/contract.md, Chat reading), so one handle's page never answers another query. */
export const chatPageKey = (input: ListChatMessagesInput) =>
  JSON.stringify([
    input.instance,
    input.limit,
    input.before?.toISOString() ?? null,
    input.search ?? null,
    input.from ?? null,
  ]);

/** One page before `before`, oldest first (newest first when searching), cached 120 s. */
export const listChatMessages = defineOperation({
  name: 'listChatMessages',
  input: listChatMessagesInput,
  run: (ctx: RequestContext, input: ListChatMessagesInput): Promise<ChatPage> =>
    ctx.services.chatCache.read(chatPageKey(input), () => readChatPage(ctx, input)),
});

async function readChatPage(ctx: RequestContext, input: ListChatMessagesInput): Promise<ChatPage> {
  const newestFirst = await readChatWindow(ctx, {
    channels: channelsOf(input.instance),
    search: input.search,
    from: input.from,
    olderThan: input.before && { when: input.before },
    end: 'newest',
    size: input.limit,
  });
  const messages = await presentMessages(chatLoaders(ctx), newestFirst);
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
