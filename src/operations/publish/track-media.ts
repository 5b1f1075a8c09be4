import type { Collection } from 'mongodb';
import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import type {
  PaintingRecord,
  PieceRecord,
  RemixOfField,
  TapeRecord,
} from '../../db/collections.js';
import { codeCandidates } from '../../domain/codes.js';
import type { SharedKind } from '../../domain/item-kinds.js';
import { isTape, type MediaExt, mayRegisterSlug, mediaCollection } from '../../domain/media.js';
import { announceWorkPublished } from '../events/outbox.js';
import { countHits } from '../items/popularity.js';
import { announceRemix, linkToParent, remixOfRecord } from '../lineage/remix-of.js';
import { defineOperation } from '../operation.js';
import { refuseTakenDown } from '../takedowns/refuse.js';
import { claimCode, releaseCode } from './codes.js';
import { publishDeduplicated } from './deduplicate.js';
import { type TrackMediaInput, trackMediaInput } from './inputs.js';
import { admitPublish } from './rate-limit.js';
import { itemUrl } from './urls.js';

export interface TrackMediaResult {
  code: string;
  slug: string;
  url: string;
  cached: boolean;
}

type MediaRecord = PaintingRecord | PieceRecord | TapeRecord;

const kindOf: Record<ReturnType<typeof mediaCollection>, SharedKind> = {
  paintings: 'painting',
  pieces: 'piece',
  tapes: 'tape',
};

function mediaRecord(
  input: TrackMediaInput,
  code: string,
  user: string | undefined,
  parent: RemixOfField | undefined,
): MediaRecord {
  const base = {
    code,
    slug: input.slug,
    when: new Date(),
    ...(user ? { user } : {}),
    ...remixOfRecord(parent),
  };
  if (isTape(input.ext)) {
    const duration = input.metadata?.totalDuration;
    return {
      ...base,
      kind: input.ext as TapeRecord['kind'], // the tape's format, stored as the reference names it
      ...(duration !== undefined ? { totalDuration: duration } : {}),
    };
  }
  return input.ext === 'png' ? base : { ...base, ext: input.ext satisfies MediaExt };
}

async function existingCode(
  collection: Collection<MediaRecord>,
  slug: string,
): Promise<string | undefined> {
  return (await collection.findOne({ slug }, { projection: { code: 1 } }))?.code;
}

/** Registers an object already in storage; the same slug always answers with the same code. */
export const trackMedia = defineOperation({
  name: 'trackMedia',
  input: trackMediaInput,
  async run(ctx: RequestContext, input: TrackMediaInput): Promise<TrackMediaResult> {
    await admitPublish(ctx);
    const { db, storage, config } = ctx.services;
    const collectionName = mediaCollection(input.ext);
    const collection = db[collectionName] as Collection<MediaRecord>;

    // Someone else's folder answers exactly as an empty one, and storage is not even asked.
    const account = ctx.viewer?.account;
    if (!mayRegisterSlug(input.slug, account) || !(await storage.exists(input.slug))) {
      throw new AppError(
        'MEDIA_NOT_FOUND',
        `No uploaded file of yours was found at ${input.slug}; upload it to storage first.`,
      );
    }
    const parent = await linkToParent(ctx, input.remixOf);
    await refuseTakenDown(ctx, kindOf[collectionName], { slug: input.slug });
    const candidates = codeCandidates('random');
    const outcome = await publishDeduplicated({
      collection,
      identity: 'slug',
      existing: () => existingCode(collection, input.slug),
      claim: () => claimCode(db, kindOf[collectionName], candidates),
      release: (code) => releaseCode(db, code, collection),
      prepare: async (code) => ({ record: mediaRecord(input, code, account, parent) }),
    });
    // Media records carry no `hits` of their own: the registering client's hit makes the first.
    await countHits(ctx, [{ kind: kindOf[collectionName], code: outcome.code }]);
    announceRemix(ctx, parent, outcome);
    await announceWorkPublished(ctx, kindOf[collectionName], outcome);
    return { ...outcome, slug: input.slug, url: itemUrl(config.publicUrl, outcome.code) };
  },
});
