import { codeCandidates } from '../../domain/codes.js';
import { sourceHash } from '../../domain/hash.js';
import type { RequestContext } from '../context.js';
import { enforcePublishLimit } from './rate-limit.js';
import { publishDeduplicated } from './deduplicate.js';
import type { PublishClockInput } from './inputs.js';
import type { PublishResult } from './publish-kidlisp.js';
import { clockUrl } from './urls.js';

/** Clock codes have a namespace of their own: the `clocks` unique code index alone decides. */
export async function publishClock(ctx: RequestContext, input: PublishClockInput): Promise<PublishResult> {
  await enforcePublishLimit(ctx);
  const { db, config } = ctx.services;
  const candidates = codeCandidates('pronounceable');
  const hash = sourceHash(input.source);
  const now = new Date();
  const outcome = await publishDeduplicated({
    collection: db.clocks,
    hash,
    claim: async () => candidates.next().value as string,
    release: async () => {},
    prepare: async (code) => ({
      record: {
        code,
        source: input.source.trim(),
        hash,
        when: now,
        lastAccessed: now,
        hits: 1,
        ...(ctx.viewer ? { user: ctx.viewer.account } : {}),
      },
    }),
  });
  return { ...outcome, url: clockUrl(config.publicUrl, outcome.code) };
}
