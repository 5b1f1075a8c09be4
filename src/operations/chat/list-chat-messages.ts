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

/**
 * The most messages sharing one `when` a page holds past its `limit`, when the whole page is one
 * such group (`before` is strict: a group split by a page boundary could never be finished).
 */
export const CHAT_TIE_GROUP_MAX = 1_000;

/**
 * A page boundary never splits messages that share a `when`. One row more than the page tells
 * whether the row past the boundary shares its time; if so, the tied rows leave this page (the
 * next one, `before` their time, starts with all of them), unless they are the whole page: then
 * the page takes in the rest of the group, and holds more than `limit` messages.
 */
async function readChatPage(ctx: RequestContext, input: ListChatMessagesInput): Promise<ChatPage> {
  const window = {
    channels: channelsOf(input.instance),
    search: input.search,
    from: input.from,
    end: 'newest',
  } as const;
  const rows = await readChatWindow(ctx, {
    ...window,
    olderThan: input.before && { when: input.before },
    size: input.limit + 1,
  });
  let newestFirst = rows.slice(0, input.limit);
  const boundary = newestFirst.at(-1);
  if (boundary && rows[input.limit]?.when.getTime() === boundary.when.getTime()) {
    const untied = newestFirst.filter((row) => row.when.getTime() !== boundary.when.getTime());
    if (untied.length > 0) newestFirst = untied;
    else
      newestFirst.push(
        ...(await readChatWindow(ctx, {
          ...window,
          olderThan: { when: boundary.when, id: boundary._id },
          newerThan: { when: new Date(boundary.when.getTime() - 1) },
          size: CHAT_TIE_GROUP_MAX,
        })),
      );
  }
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
