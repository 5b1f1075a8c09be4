import type { Collection } from 'mongodb';
import type { RateLimitRecord } from '../db/collections.js';
import { decide, type RateLimiter, type RateLimitPolicy, windowOf } from './rate-limiter.js';

/** Counts in the shared database, so several instances enforce one limit; a TTL index clears old windows. */
export function createMongoRateLimiter(
  policy: RateLimitPolicy,
  collection: Collection<RateLimitRecord>,
): RateLimiter {
  return {
    async hit(key) {
      const now = Date.now();
      const { start, end } = windowOf(policy, now);
      const record = await collection.findOneAndUpdate(
        { _id: `${key}@${start}` },
        { $inc: { count: 1 }, $setOnInsert: { expires: new Date(end) } },
        { upsert: true, returnDocument: 'after' },
      );
      return decide(policy, record?.count ?? 1, end, now);
    },
  };
}
