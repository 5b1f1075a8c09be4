import DataLoader from 'dataloader';
import { ObjectId } from 'mongodb';
import { z } from 'zod';
import type { RequestContext, Services } from '../../context.js';
import { tracedBatch } from '../../db/traced-batch.js';
import { oneBatch } from '../handle-loaders.js';
import { defineOperation } from '../operation.js';
import type { ChatEntry } from './chat-entry.js';
import { CHAT_CHANNELS } from './inputs.js';
import { toEntry } from './read-window.js';

/** A message id as the chat answers it: its ObjectId in hex. */
export const isMessageId = (id: string) => /^[0-9a-f]{24}$/.test(id);

/** Per request: messages by id, every load of a tick in one find per channel. */
function createMessageLoader({ db }: Services): DataLoader<string, ChatEntry | null> {
  return new DataLoader(
    tracedBatch(db, 'chat-messages', async (ids: readonly string[], db) => {
      const filter = { _id: { $in: ids.map((id) => new ObjectId(id)) }, deleted: { $ne: true } };
      const found = await Promise.all(
        CHAT_CHANNELS.map(async (channel) => {
          const rows = await db.chat[channel]
            .find(filter, {
              projection: { user: 1, text: 1, when: 1 },
              batchSize: oneBatch(ids.length),
            })
            .toArray();
          return rows.map((row) => toEntry({ ...row, instance: channel }));
        }),
      );
      const byId = new Map(found.flat().map((entry) => [entry.id, entry]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
}

const findChatMessagesInput = z.object({ ids: z.array(z.string()) });

/**
 * Chat messages by id (GraphQL `node`/`nodes`), in the order asked: null for an id no message
 * of either channel has, a removed message, or anything that is not a message id.
 */
export const findChatMessages = defineOperation({
  name: 'chatMessagesById',
  input: findChatMessagesInput,
  run: (
    ctx: RequestContext,
    input: z.output<typeof findChatMessagesInput>,
  ): Promise<(ChatEntry | null)[]> => {
    const loader = ctx.perRequest(createMessageLoader);
    return Promise.all(input.ids.map((id) => (isMessageId(id) ? loader.load(id) : null)));
  },
});
