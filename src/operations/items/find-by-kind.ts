import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { countedReads } from './get-item.js';
import { ITEM_KINDS, type Item } from './item.js';
import { loadCode } from './loaders.js';

const findKindItemsInput = z.object({
  refs: z.array(z.object({ kind: z.enum(ITEM_KINDS), code: z.string() })),
});

/**
 * Items named by kind and bare code (GraphQL `node`/`nodes`), in the order asked, null where
 * that kind has no such code: one query per collection for the whole list; a found item counts
 * a hit, as `items(codes:)` does.
 */
export const findKindItems = defineOperation({
  name: 'itemsByKind',
  input: findKindItemsInput,
  run: (
    ctx: RequestContext,
    input: z.output<typeof findKindItemsInput>,
  ): Promise<(Item | null)[]> =>
    countedReads(
      ctx,
      input.refs.map(({ kind, code }) => loadCode(ctx, code, [kind])),
    ),
});
