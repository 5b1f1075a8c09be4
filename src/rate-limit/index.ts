import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createMemoryRateLimiter } from './memory-store.js';
import { createMongoRateLimiter } from './mongo-store.js';
import type { RateLimiter } from './rate-limiter.js';

export type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

export function createPublishRateLimiter(config: Config, db: Database): RateLimiter {
  const policy = { limit: config.rateLimit.publish, windowSeconds: config.rateLimit.windowSeconds };
  return config.rateLimit.store === 'mongo'
    ? createMongoRateLimiter(policy, db.rateLimits)
    : createMemoryRateLimiter(policy);
}
