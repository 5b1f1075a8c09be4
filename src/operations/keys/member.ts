import { AppError } from '../../app-error.js';
import type { Viewer } from '../../auth/authenticator.js';
import { requireScope } from '../../auth/scopes.js';
import type { RequestContext } from '../../context.js';

/** The member managing their keys: signed in, a JWT from AUTH_ISSUER, or a key with the `keys` scope. */
export function keysMember(ctx: RequestContext): Viewer {
  const { viewer } = ctx;
  if (!viewer)
    throw new AppError(
      'UNAUTHENTICATED',
      'Managing keys needs an account: sign in, or send a token from the issuer or a key with the "keys" scope.',
    );
  requireScope(viewer, 'keys', 'manage keys');
  return viewer;
}
