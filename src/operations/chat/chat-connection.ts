import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { encodeChatCursor } from './cursor.js';
import {
  CHAT_LIMIT_DEFAULT,
  type ChatConnectionInput,
  channelsOf,
  chatConnectionInput,
} from './inputs.js';
import { type ChatEntry, readChatWindow } from './read-window.js';

export interface ChatConnection {
  edges: { cursor: string; node: ChatEntry }[];
  pageInfo: {
    hasPreviousPage: boolean;
    hasNextPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/**
 * A Relay page of chat messages, edges oldest first. `first`/`after` read forwards (newer),
 * `last`/`before` backwards (older); with neither, the latest 50. `from` and `hearts` of each
 * node are left to the loaders.
 */
export const chatMessagesConnection = defineOperation({
  name: 'chatMessages',
  input: chatConnectionInput,
  async run(ctx: RequestContext, input: ChatConnectionInput): Promise<ChatConnection> {
    const forward =
      input.first !== undefined || (input.after !== undefined && input.last === undefined);
    const size = input.first ?? input.last ?? CHAT_LIMIT_DEFAULT;
    const rows = await readChatWindow(ctx, {
      channels: channelsOf(input.instance),
      search: input.search,
      from: input.from,
      olderThan: input.before,
      newerThan: input.after,
      end: forward ? 'oldest' : 'newest',
      size: size + 1, // one more than asked tells whether the page has a neighbour that way
    });
    const more = rows.length > size;
    const page = rows.slice(0, size);
    const oldestFirst = forward ? page : page.reverse();
    const edges = oldestFirst.map((node) => ({
      cursor: encodeChatCursor({ when: node.when, id: node._id }),
      node,
    }));
    return {
      edges,
      pageInfo: {
        hasPreviousPage: forward ? input.after !== undefined : more,
        hasNextPage: forward ? more : input.before !== undefined,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  },
});
