import type { Collection, Document } from 'mongodb';
import type { RequestContext } from '../../context.js';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { collectionOf, ITEM_KINDS } from './item.js';

/**
 * How many works these accounts published, every kind together: one count per kind's
 * collection, at once, each answered from its `user` index.
 */
export async function countWorks(
  ctx: RequestContext,
  accounts: readonly string[],
): Promise<number> {
  if (accounts.length === 0) return 0;
  const counts = await Promise.all(
    ITEM_KINDS.map((kind) =>
      (collectionOf(ctx.services.db, kind) as unknown as Collection<Document>).countDocuments(
        { user: { $in: [...accounts] } },
        { maxTimeMS: QUERY_TIME_LIMIT_MS },
      ),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
