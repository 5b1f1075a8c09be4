import { LRUCache } from 'lru-cache';
import { decide, type RateLimiter, type RateLimitPolicy, windowOf } from './rate-limiter.js';

/** Counts in this process: right for a single instance. */
export function createMemoryRateLimiter(policy: RateLimitPolicy, maxKeys = 100_000): RateLimiter {
  const counts = new LRUCache<string, { windowEnd: number; count: number }>({ max: maxKeys });
  return {
    async hit(key) {
      const now = Date.now();
      const { end } = windowOf(policy, now);
      const entry = counts.get(key);
      const current = entry && entry.windowEnd === end ? entry : { windowEnd: end, count: 0 };
      current.count += 1;
      counts.set(key, current);
      return decide(policy, current.count, end, now);
    },
  };
}
