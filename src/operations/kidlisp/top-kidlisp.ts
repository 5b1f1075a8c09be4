import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { defineOperation } from '../operation.js';
import { itemUrl } from '../publish/urls.js';

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

export interface KidlispExample {
  code: string;
  source: string;
  hits: number;
  url: string;
}

/** The most popular published KidLisp by `hits`, most first (ties: newest first). */
export const topKidlisp = defineOperation({
  name: 'topKidlisp',
  input: topKidlispInput,
  async run(
    ctx: RequestContext,
    input: z.output<typeof topKidlispInput>,
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
  },
});
