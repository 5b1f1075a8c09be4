import { z } from 'zod';
import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { failIfRemoved } from '../takedowns/removal.js';
import { optional } from '../validation.js';
import { countedReads } from './get-item.js';
import {
  codeField,
  codesField,
  handleField,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  pageSize,
  sortParam,
} from './inputs.js';
import type { Item, ItemKind } from './item.js';
import { authorHandleOf, itemLoaders } from './loaders.js';
import { accountsOf } from './published-connection.js';
import { readPublished } from './read-published.js';

/**
 * The reference service's GET reads (`/api/store-kidlisp`, `/api/store-clock`,
 * `/api/piece-metadata`) with its parameters, shapes and error sentences; failures carry the
 * service's error shape and machine codes (docs/contract.md, the read side).
 */

const PREVIEW_SHOWN = 37;
const PREVIEW_WHOLE = 40;

/** The first 37 characters and `...` when the source is longer than 40, as the reference lists it. */
export const previewOf = (source: string) =>
  source.length > PREVIEW_WHOLE ? `${source.slice(0, PREVIEW_SHOWN)}...` : source;

/** An entry as the reference answers it: the record's fields and its author's `@handle`. */
async function entryOf(ctx: RequestContext, item: Item) {
  return {
    source: item.source ?? '',
    when: item.when.toISOString(),
    hits: item.hits,
    user: item.user,
    handle: await authorHandleOf(ctx, item),
  };
}

async function recentList(
  ctx: RequestContext,
  kind: ItemKind,
  input: { limit: number; sort: 'recent' | 'hits'; handle?: string | undefined },
) {
  const users = input.handle === undefined ? undefined : await accountsOf(ctx, input.handle);
  const rows = await readPublished(ctx, {
    kinds: [kind],
    sort: input.sort,
    users,
    end: 'top',
    size: input.limit,
  });
  return Promise.all(
    rows.map(async ({ item }) => ({
      code: item.code,
      ...(await entryOf(ctx, item)),
      preview: previewOf(item.source ?? ''),
    })),
  );
}

const listParams = {
  recent: optional(z.string({ error: 'recent must be 1.' })),
  limit: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    pageSize('limit', LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
  ),
  sort: sortParam,
};

const storeKidlispReadInput = z.object({
  code: optional(codeField),
  codes: optional(codesField),
  ...listParams,
  handle: optional(handleField('handle')),
});

const kidlispLookup = (ctx: RequestContext, code: string) =>
  itemLoaders(ctx).byKind.kidlisp.load(code);

/** `GET /api/store-kidlisp?code= | codes= | recent=1[&limit&sort&handle]`; a found item counts a read. */
export const readStoreKidlisp = defineOperation({
  name: 'readStoreKidlisp',
  input: storeKidlispReadInput,
  async run(ctx: RequestContext, input: z.output<typeof storeKidlispReadInput>) {
    if (input.code !== undefined) {
      const [item] = await countedReads(ctx, [kidlispLookup(ctx, input.code)]);
      if (!item) await failIfRemoved(ctx, input.code);
      if (!item) throw new AppError('ITEM_NOT_FOUND', 'Not found');
      return entryOf(ctx, item);
    }
    if (input.codes !== undefined) {
      const items = await countedReads(
        ctx,
        input.codes.map((code) => kidlispLookup(ctx, code)),
      );
      const results: Record<string, Awaited<ReturnType<typeof entryOf>> | null> = {};
      const entries = await Promise.all(items.map((item) => (item ? entryOf(ctx, item) : null)));
      input.codes.forEach((code, index) => {
        results[code] = entries[index] ?? null;
      });
      const foundCodes = input.codes.filter((code) => results[code] !== null);
      const missingCodes = input.codes.filter((code) => results[code] === null);
      return {
        results,
        summary: {
          requested: input.codes.length,
          found: foundCodes.length,
          missing: missingCodes.length,
          foundCodes,
          missingCodes,
        },
      };
    }
    if (input.recent !== undefined) {
      const recent = await recentList(ctx, 'kidlisp', input);
      return { recent, count: recent.length, limit: input.limit };
    }
    throw new AppError('CODE_REQUIRED', 'Code or codes parameter required');
  },
});

const storeClockReadInput = z.object({ code: optional(codeField), ...listParams });

/** `GET /api/store-clock?code= | recent=1[&limit&sort]`; the code is lowercased, as the reference does. */
export const readStoreClock = defineOperation({
  name: 'readStoreClock',
  input: storeClockReadInput,
  async run(ctx: RequestContext, input: z.output<typeof storeClockReadInput>) {
    if (input.code !== undefined) {
      const code = input.code.toLowerCase();
      const [item] = await countedReads(ctx, [itemLoaders(ctx).byKind.clock.load(code)]);
      if (!item) await failIfRemoved(ctx, `clock~${code}`);
      if (!item) throw new AppError('ITEM_NOT_FOUND', 'Clock not found');
      return { code: item.code, ...(await entryOf(ctx, item)) };
    }
    if (input.recent !== undefined) {
      const recent = await recentList(ctx, 'clock', input);
      return { recent, count: recent.length };
    }
    throw new AppError('CODE_REQUIRED', 'Missing code parameter');
  },
});

const pieceMetadataInput = z.object({ code: optional(codeField) });

/**
 * `GET /api/piece-metadata?code=`: who published a piece and how far it is trusted. An unknown
 * code answers the defaults (200), as the reference does. Reading metadata counts no hit.
 */
export const readPieceMetadata = defineOperation({
  name: 'readPieceMetadata',
  input: pieceMetadataInput,
  async run(ctx: RequestContext, input: z.output<typeof pieceMetadataInput>) {
    if (input.code === undefined) throw new AppError('CODE_REQUIRED', 'Missing code parameter');
    const record = await ctx.services.db.pieces.findOne(
      { code: input.code },
      { projection: { code: 1, user: 1, anonymous: 1, trustLevel: 1, authorSub: 1, when: 1 } },
    );
    if (!record) return { code: input.code, trustLevel: 'untrusted', anonymous: true };
    const fields = record as typeof record & { trustLevel?: unknown; authorSub?: unknown };
    return {
      code: record.code,
      trustLevel: typeof fields.trustLevel === 'string' ? fields.trustLevel : 'untrusted',
      anonymous: typeof record.anonymous === 'boolean' ? record.anonymous : !record.user,
      authorSub: typeof fields.authorSub === 'string' ? fields.authorSub : (record.user ?? null),
      when: record.when.toISOString(),
    };
  },
});
