import DataLoader from 'dataloader';
import type { RequestContext, Services } from '../../context.js';
import type { Database } from '../../db/client.js';
import { tracedBatch } from '../../db/traced-batch.js';
import { createHandleLoaders, type HandleLoaders, oneBatch } from '../handle-loaders.js';
import type { ChatChannel } from './inputs.js';

export interface HeartKey {
  instance: ChatChannel;
  id: string;
}

/** Per request: each batches every load of one page into one database command. */
export interface ChatLoaders extends HandleLoaders {
  /** Heart count of a message: records of type `chat-<instance>` for its id. */
  hearts: DataLoader<HeartKey, number, string>;
}

/** Fresh loaders (nothing cached): per request, or per batch of live messages. */
export function createChatLoaders(db: Database): ChatLoaders {
  const hearts = new DataLoader<HeartKey, number, string>(
    tracedBatch(db, 'hearts', async (keys: readonly HeartKey[], db) => {
      const types = [...new Set(keys.map((key) => `chat-${key.instance}`))];
      const ids = [...new Set(keys.map((key) => key.id))];
      const counts = await db.hearts
        .aggregate<{ _id: { type: string; for: string }; count: number }>(
          [
            { $match: { type: { $in: types }, for: { $in: ids } } },
            { $group: { _id: { type: '$type', for: '$for' }, count: { $sum: 1 } } },
          ],
          { batchSize: oneBatch(types.length * ids.length) },
        )
        .toArray();
      const byKey = new Map(counts.map((row) => [`${row._id.type}:${row._id.for}`, row.count]));
      return keys.map((key) => byKey.get(`chat-${key.instance}:${key.id}`) ?? 0);
    }),
    { cacheKeyFn: (key) => `${key.instance}:${key.id}` },
  );

  return { hearts, ...createHandleLoaders(db) };
}

const forServices = (services: Services) => createChatLoaders(services.db);

/** The request's chat loaders, made on first use. */
export const chatLoaders = (ctx: RequestContext): ChatLoaders => ctx.perRequest(forServices);

/** `@handle`, or `anon` for no user, an empty user or an account without a handle. */
export async function senderOf(loaders: ChatLoaders, user: string | undefined): Promise<string> {
  if (!user) return 'anon';
  const handle = await loaders.handles.load(user);
  return handle ? `@${handle}` : 'anon';
}

export const heartsOf = (loaders: ChatLoaders, message: HeartKey): Promise<number> =>
  loaders.hearts.load(message);
