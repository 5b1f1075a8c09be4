import { z } from 'zod';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { previewKidlisp as checkKidlisp, type KidlispPreview } from '../../domain/kidlisp/index.js';
import type { RequestContext } from '../../context.js';
import { KIDLISP_MAX } from '../publish/inputs.js';
import { itemUrl } from '../publish/urls.js';
import { sourceField } from '../validation.js';

export type { KidlispPreview };

/** An empty source is not an input error here: the preview reports it (valid: false). */
export const previewKidlispInput = z.object({
  source: sourceField(KIDLISP_MAX, { allowBlank: true }),
});

export type PreviewKidlispInput = z.output<typeof previewKidlispInput>;

/** Pure: needs no request context, so the stdio server runs it locally too. */
export function previewKidlisp(input: PreviewKidlispInput): KidlispPreview {
  return checkKidlisp(input.source);
}

export const TOP_KIDLISP_MAX = 20;

export const topKidlispInput = z.object({
  limit: z
    .number({ error: 'limit must be a number.' })
    .int('limit must be an integer.')
    .min(1, 'limit must be at least 1.')
    .max(TOP_KIDLISP_MAX, `limit must be at most ${TOP_KIDLISP_MAX}.`)
    .nullish()
    .transform((limit) => limit ?? 5),
});

export type TopKidlispInput = z.output<typeof topKidlispInput>;

export interface KidlispExample {
  code: string;
  source: string;
  hits: number;
  url: string;
}

/** The most popular published KidLisp by `hits`, most first (ties: newest first). */
export async function topKidlisp(
  ctx: RequestContext,
  input: TopKidlispInput,
): Promise<KidlispExample[]> {
  const { db, config } = ctx.services;
  const records = await db.kidlisp
    .find(
      {},
      { projection: { _id: 0, code: 1, source: 1, hits: 1 }, maxTimeMS: QUERY_TIME_LIMIT_MS },
    )
    .sort({ hits: -1, when: -1 })
    .limit(input.limit)
    .toArray();
  return records.map((record) => ({
    code: record.code,
    source: record.source,
    hits: record.hits ?? 0,
    url: itemUrl(config.publicUrl, record.code),
  }));
}
