import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { listKeysInput } from './inputs.js';
import { type KeyView, keyView } from './key-view.js';
import { keysMember } from './member.js';

/** At most this many keys are listed (the newest); nobody needs more. */
export const KEYS_LISTED = 200;

export const listKeys = defineOperation({
  name: 'listKeys',
  input: listKeysInput,
  async run(ctx: RequestContext): Promise<{ keys: KeyView[] }> {
    const member = keysMember(ctx);
    const records = await ctx.services.db.apiTokens
      .find(
        { account: member.account, revoked: { $exists: false } },
        { sort: { created: -1 }, limit: KEYS_LISTED },
      )
      .toArray();
    return { keys: records.map(keyView) };
  },
});
