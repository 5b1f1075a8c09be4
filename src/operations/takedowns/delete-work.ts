import { z } from 'zod';
import { AppError } from '../../app-error.js';
import { requireScope } from '../../auth/scopes.js';
import type { RequestContext } from '../../context.js';
import { removalEventsOf } from '../events/removal-events.js';
import { codeField } from '../items/inputs.js';
import { defineOperation } from '../operation.js';
import { takeDown } from './take-down.js';
import { announceRemovals } from './watch.js';

export const deleteWorkInput = z.object({ code: codeField });

export interface DeletedWork {
  code: string;
  address: string;
  deleted: true;
}

/**
 * `DELETE /api/items/<code>` and GraphQL `deleteWork`: a member takes down a work of their own
 * account (the bearer's). Another account's work answers ITEM_NOT_FOUND, as if it were not there.
 * The same source may be published again afterwards. A key needs the `publish` scope.
 */
export const deleteWork = defineOperation({
  name: 'deleteWork',
  input: deleteWorkInput,
  async run(ctx: RequestContext, input: z.output<typeof deleteWorkInput>): Promise<DeletedWork> {
    if (!ctx.viewer)
      throw new AppError(
        'UNAUTHENTICATED',
        'Deleting a work needs the bearer token of its account.',
      );
    requireScope(ctx.viewer, 'publish', 'delete works');
    const entry = await takeDown(
      ctx.services.db,
      {
        address: input.code,
        by: 'author',
        reason: 'deleted by its author',
        owner: ctx.viewer.account,
      },
      removalEventsOf(ctx.services),
    );
    announceRemovals(ctx.services);
    return { code: entry.code, address: entry._id, deleted: true };
  },
});
