import DataLoader from 'dataloader';
import type { RequestContext, Services } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { ChatChannel } from './inputs.js';

export interface HeartKey {
  instance: ChatChannel;
  id: string;
}

/** Per request: each batches every load of one page into one database command. */
export interface ChatLoaders {
  /** Heart count of a message: records of type `chat-<instance>` for its id. */
  hearts: DataLoader<HeartKey, number, string>;
  /** Account id to handle (without `@`), null when the account has none. */
  handles: DataLoader<string, string | null>;
  /** Handle (without `@`) to account id, null when no account has it. */
  accounts: DataLoader<string, string | null>;
}

/** A first batch that holds every possible row, so the cursor closes without a getMore. */
const oneBatch = (possibleRows: number) => possibleRows + 1;

/** Fresh loaders (nothing cached): per request, or per batch of live messages. */
export function createChatLoaders(db: Database): ChatLoaders {
  const hearts = new DataLoader<HeartKey, number, string>(
    async (keys) => {
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
    },
    { cacheKeyFn: (key) => `${key.instance}:${key.id}` },
  );

  const handles = new DataLoader<string, string | null>(async (accounts) => {
    const rows = await db.handles
      .find(
        { _id: { $in: [...accounts] } },
        { projection: { handle: 1 }, batchSize: oneBatch(accounts.length) },
      )
      .toArray();
    const byAccount = new Map(rows.map((row) => [row._id, row.handle]));
    return accounts.map((account) => byAccount.get(account) ?? null);
  });

  const accounts = new DataLoader<string, string | null>(async (names) => {
    const rows = await db.handles
      .find(
        { handle: { $in: [...names] } },
        { projection: { handle: 1 }, batchSize: oneBatch(names.length) },
      )
      .toArray();
    const byHandle = new Map<string, string>();
    for (const row of rows) {
      byHandle.set(row.handle, row._id);
      handles.prime(row._id, row.handle); // the page that follows is this account's: its `from` needs no query
    }
    return names.map((name) => byHandle.get(name) ?? null);
  });

  return { hearts, handles, accounts };
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
