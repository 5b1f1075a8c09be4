import type { RequestContext } from '../../context.js';
import { codeCandidates } from '../../domain/codes.js';
import { sourceHash } from '../../domain/hash.js';
import { announceWorkPublished } from '../events/outbox.js';
import { countPublish } from '../items/popularity.js';
import { announceRemix, linkToParent, remixOfRecord } from '../lineage/remix-of.js';
import { defineOperation } from '../operation.js';
import { refuseTakenDown, unremovedClockCode } from '../takedowns/refuse.js';
import { codeByHash, publishDeduplicated } from './deduplicate.js';
import { type PublishClockInput, publishClockInput } from './inputs.js';
import { admitPublish } from './rate-limit.js';
import { type PublishResult, sourceFields } from './source-record.js';
import { clockUrl } from './urls.js';

/** Clock codes have a namespace of their own: the `clocks` unique code index alone decides. */
export const publishClock = defineOperation({
  name: 'publishClock',
  input: publishClockInput,
  async run(ctx: RequestContext, input: PublishClockInput): Promise<PublishResult> {
    await admitPublish(ctx);
    const { db, config } = ctx.services;
    const candidates = codeCandidates('pronounceable');
    const hash = sourceHash(input.source);
    const now = new Date();
    const parent = await linkToParent(ctx, input.remixOf);
    await refuseTakenDown(ctx, 'clock', { hash });
    const outcome = await publishDeduplicated({
      collection: db.clocks,
      identity: 'hash',
      existing: () => codeByHash(db.clocks, hash),
      claim: () => unremovedClockCode(db, candidates),
      release: async () => {},
      prepare: async (code) => ({
        record: {
          code,
          ...sourceFields(ctx, input.source, hash, now),
          ...remixOfRecord(parent),
        },
      }),
    });
    await countPublish(ctx, 'clock', outcome);
    announceRemix(ctx, parent, outcome);
    await announceWorkPublished(ctx, 'clock', outcome);
    return { ...outcome, url: clockUrl(config.publicUrl, outcome.code) };
  },
});
