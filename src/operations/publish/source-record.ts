import type { RequestContext } from '../../context.js';
import type { SourceRecord } from '../../db/collections.js';

export interface PublishResult {
  code: string;
  url: string;
  cached: boolean;
}

/** The fields every source-carrying record shares: trimmed source, hash, times, hits, owner. */
export function sourceFields(
  ctx: RequestContext,
  source: string,
  hash: string,
  now: Date,
): Omit<SourceRecord, 'code'> {
  return {
    source: source.trim(),
    hash,
    when: now,
    lastAccessed: now,
    hits: 1,
    ...(ctx.viewer ? { user: ctx.viewer.account } : {}),
  };
}
