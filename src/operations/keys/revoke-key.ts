import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { revokeKeyInput } from './inputs.js';
import { keysMember } from './member.js';

/**
 * Revokes one of the member's keys. Another member's key, or one already revoked, is not found:
 * nobody learns that a key id exists. Every instance reads keys from the database on each use,
 * so the key fails everywhere at once.
 */
export const revokeKey = defineOperation({
  name: 'revokeKey',
  input: revokeKeyInput,
  async run(ctx: RequestContext, input: { id: string }): Promise<{ id: string; revoked: true }> {
    const member = keysMember(ctx);
    const result = await ctx.services.db.apiTokens.updateOne(
      {
        account: member.account,
        revoked: { $exists: false },
        $or: [{ id: input.id }, { id: { $exists: false }, prefix: input.id }],
      },
      { $set: { revoked: new Date() } },
    );
    if (result.matchedCount === 0)
      throw new AppError('KEY_NOT_FOUND', `You have no key ${input.id}.`, { field: 'id' });
    return { id: input.id, revoked: true };
  },
});
