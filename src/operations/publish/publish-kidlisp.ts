import type { RequestContext } from '../../context.js';
import { codeCandidates } from '../../domain/codes.js';
import { sourceHash } from '../../domain/hash.js';
import { announceWorkPublished } from '../events/outbox.js';
import { countPublish } from '../items/popularity.js';
import { queueThumbnail } from '../kidlisp/thumbnail-store.js';
import { announceRemix, linkToParent, remixOfRecord } from '../lineage/remix-of.js';
import { defineOperation } from '../operation.js';
import { refuseTakenDown } from '../takedowns/refuse.js';
import { claimCode, releaseCode } from './codes.js';
import { codeByHash, publishDeduplicated } from './deduplicate.js';
import { type PublishKidlispInput, publishKidlispInput } from './inputs.js';
import { admitPublish } from './rate-limit.js';
import { type PublishResult, sourceFields } from './source-record.js';
import { itemUrl } from './urls.js';

export const publishKidlisp = defineOperation({
  name: 'publishKidlisp',
  input: publishKidlispInput,
  async run(ctx: RequestContext, input: PublishKidlispInput): Promise<PublishResult> {
    await admitPublish(ctx);
    const { db, config } = ctx.services;
    const candidates = codeCandidates('random');
    const hash = sourceHash(input.source);
    const now = new Date();
    const parent = await linkToParent(ctx, input.remixOf);
    await refuseTakenDown(ctx, 'kidlisp', { hash });
    const outcome = await publishDeduplicated({
      collection: db.kidlisp,
      identity: 'hash',
      existing: () => codeByHash(db.kidlisp, hash),
      claim: () => claimCode(db, 'kidlisp', candidates),
      release: (code) => releaseCode(db, code, db.kidlisp),
      prepare: async (code) => ({
        record: {
          code,
          ...sourceFields(ctx, input.source, hash, now),
          ...remixOfRecord(parent),
        },
      }),
    });
    await countPublish(ctx, 'kidlisp', outcome);
    announceRemix(ctx, parent, outcome);
    if (!outcome.cached) queueThumbnail(ctx, outcome.code, input.source);
    await announceWorkPublished(ctx, 'kidlisp', outcome);
    return { ...outcome, url: itemUrl(config.publicUrl, outcome.code) };
  },
});
