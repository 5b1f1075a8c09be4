import { z } from 'zod';
import { SIGN_IN_PATH, SIGN_OUT_PATH } from '../../auth/sign-in.js';
import type { RequestContext } from '../../context.js';
import { itemLoaders } from '../items/loaders.js';
import { defineOperation } from '../operation.js';

export interface WhoAmI {
  /** The account the request acts for; null when anonymous. */
  account: string | null;
  /** Its `@handle`, or null. */
  handle: string | null;
  /** How: `session` (signed in on the site), `key` or `jwt` (a bearer token); null when anonymous. */
  via: 'session' | 'key' | 'jwt' | null;
  /** Where a browser signs in (a plain link), or null when the site has no sign-in. */
  signIn: string | null;
  /** Where a signed-in browser POSTs to sign out, or null when it is not signed in. */
  signOut: string | null;
}

/**
 * Who a request acts for, for a page's own script (the editor, /settings/keys): the site's pages
 * are the same for everyone and shared by caches, so what is the member's is asked for here.
 */
export const whoAmI = defineOperation({
  name: 'whoAmI',
  input: z.object({}),
  async run(ctx: RequestContext): Promise<WhoAmI> {
    const { viewer } = ctx;
    const signIn = ctx.services.config.auth.client ? SIGN_IN_PATH : null;
    if (!viewer) return { account: null, handle: null, via: null, signIn, signOut: null };
    const handle = await itemLoaders(ctx).handles.load(viewer.account);
    return {
      account: viewer.account,
      handle: handle ? `@${handle}` : null,
      via: viewer.via,
      signIn,
      signOut: viewer.via === 'session' ? SIGN_OUT_PATH : null,
    };
  },
});
