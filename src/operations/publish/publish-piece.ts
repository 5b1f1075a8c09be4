import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import { codeCandidates, nameSlug, numberedSlug } from '../../domain/codes.js';
import { sourceHash } from '../../domain/hash.js';
import { pieceStorageKey } from '../../domain/media.js';
import { checkPieceExports } from '../../domain/piece-exports.js';
import { announceWorkPublished } from '../events/outbox.js';
import { countPublish } from '../items/popularity.js';
import { announceRemix, linkToParent, remixOfRecord } from '../lineage/remix-of.js';
import { defineOperation } from '../operation.js';
import { refuseTakenDown } from '../takedowns/refuse.js';
import { claimCode, releaseCode } from './codes.js';
import { codeByHash, publishDeduplicated } from './deduplicate.js';
import { type PublishPieceInput, publishPieceInput } from './inputs.js';
import { admitPublish } from './rate-limit.js';
import { type PublishResult, sourceFields } from './source-record.js';
import { itemUrl } from './urls.js';

const NUMBERED_NAMES = 50;

/** A named piece is addressed by its name's slug, then `slug-2`, `slug-3`...; otherwise by a pronounceable word. */
function* pieceCodes(name: string | undefined): Generator<string> {
  const slug = name === undefined ? null : nameSlug(name);
  if (slug) {
    yield slug;
    for (let n = 2; n <= NUMBERED_NAMES; n++) yield numberedSlug(slug, n);
  }
  yield* codeCandidates('pronounceable');
}

function assertLifecycle(source: string): void {
  const check = checkPieceExports(source);
  if (check.ok) return;
  if (check.reason === 'syntax') {
    throw new AppError(
      'PIECE_SYNTAX',
      `The piece has a syntax error at line ${check.line}, column ${check.column}: ${check.message}`,
      {
        line: check.line,
        column: check.column,
      },
    );
  }
  throw new AppError(
    'PIECE_NO_LIFECYCLE',
    'The piece must export at least one of boot, paint, sim or act, or have a default export.',
    {
      exports: check.exports,
    },
  );
}

/** Stores the module in object storage, then its record; a lost race or failed write leaves neither behind. */
export const publishPiece = defineOperation({
  name: 'publishPiece',
  input: publishPieceInput,
  async run(ctx: RequestContext, input: PublishPieceInput): Promise<PublishResult> {
    await admitPublish(ctx);
    assertLifecycle(input.source);
    const { db, config, storage } = ctx.services;
    const candidates = pieceCodes(input.name);
    const hash = sourceHash(input.source);
    const now = new Date();
    const parent = await linkToParent(ctx, input.remixOf);
    await refuseTakenDown(ctx, 'piece', { hash });
    const outcome = await publishDeduplicated({
      collection: db.pieces,
      identity: 'hash',
      existing: () => codeByHash(db.pieces, hash),
      claim: () => claimCode(db, 'piece', candidates),
      release: (code) => releaseCode(db, code, db.pieces),
      prepare: async (code) => {
        const key = pieceStorageKey(code, now, ctx.viewer?.account);
        await storage.put(key, input.source, 'text/javascript; charset=utf-8');
        return {
          record: {
            code,
            slug: key,
            ...sourceFields(ctx, input.source, hash, now),
            bucket: storage.location,
            anonymous: !ctx.viewer,
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...remixOfRecord(parent),
          },
          undo: () => storage.delete(key),
        };
      },
    });
    await countPublish(ctx, 'piece', outcome);
    announceRemix(ctx, parent, outcome);
    await announceWorkPublished(ctx, 'piece', outcome);
    return { ...outcome, url: itemUrl(config.publicUrl, outcome.code) };
  },
});
