import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { type Connection, relayPage } from '../paging.js';
import { encodeChatCursor } from './cursor.js';
import {
  CHAT_LIMIT_DEFAULT,
  type ChatConnectionInput,
  channelsOf,
  chatConnectionInput,
} from './inputs.js';
import { type ChatEntry, readChatWindow } from './read-window.js';

export type ChatConnection = Connection<ChatEntry>;

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
    return relayPage(
      { size, forward, after: input.after, before: input.before },
      (limit) =>
        readChatWindow(ctx, {
          channels: channelsOf(input.instance),
          search: input.search,
          from: input.from,
          olderThan: input.before,
          newerThan: input.after,
          end: forward ? 'oldest' : 'newest',
          size: limit,
        }),
      (node) => ({ cursor: encodeChatCursor({ when: node.when, id: node._id }), node }),
    );
  },
});
