import DataLoader from 'dataloader';
import type { Database } from '../db/client.js';
import { tracedBatch } from '../db/traced-batch.js';

/** Account ids and `@handles` (stored without the `@`), each batched into one query per tick. */
export interface HandleLoaders {
  /** Account id to handle, null when the account has none. */
  handles: DataLoader<string, string | null>;
  /** Handle to the accounts holding it: one since handles are unique, more in older data. */
  accounts: DataLoader<string, string[]>;
}

/** A first batch that holds every possible row, so the cursor closes without a getMore. */
export const oneBatch = (possibleRows: number) => possibleRows + 1;

export function createHandleLoaders(db: Database): HandleLoaders {
  const handles = new DataLoader<string, string | null>(
    tracedBatch(db, 'handles', async (accounts: readonly string[], db) => {
      const rows = await db.handles
        .find(
          { _id: { $in: [...accounts] } },
          { projection: { handle: 1 }, batchSize: oneBatch(accounts.length) },
        )
        .toArray();
      const byAccount = new Map(rows.map((row) => [row._id, row.handle]));
      return accounts.map((account) => byAccount.get(account) ?? null);
    }),
  );

  const accounts = new DataLoader<string, string[]>(
    tracedBatch(db, 'accounts', async (names: readonly string[], db) => {
      const rows = await db.handles
        .find(
          { handle: { $in: [...names] } },
          { projection: { handle: 1 }, batchSize: oneBatch(names.length) },
        )
        .toArray();
      const byHandle = new Map<string, string[]>();
      for (const row of rows) {
        byHandle.set(row.handle, [...(byHandle.get(row.handle) ?? []), row._id]);
        // What follows is this account's (its page, its works): its handle needs no second query.
        handles.prime(row._id, row.handle);
      }
      return names.map((name) => byHandle.get(name) ?? []);
    }),
  );

  return { handles, accounts };
}
