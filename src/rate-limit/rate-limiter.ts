/** Fixed-window counting: at most `limit` hits per key per window. */
export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string): Promise<RateLimitDecision>;
}

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export function windowOf(policy: RateLimitPolicy, now: number): { start: number; end: number } {
  const size = policy.windowSeconds * 1000;
  const start = Math.floor(now / size) * size;
  return { start, end: start + size };
}

export function decide(
  policy: RateLimitPolicy,
  count: number,
  windowEnd: number,
  now: number,
): RateLimitDecision {
  return {
    allowed: count <= policy.limit,
    remaining: Math.max(0, policy.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}
