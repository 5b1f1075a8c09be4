import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';

/** The path the issuer sends a member back to, and where a sign-in starts. */
export const SIGN_IN_PATH = '/auth/sign-in';
export const CALLBACK_PATH = '/auth/callback';
export const SIGN_OUT_PATH = '/auth/sign-out';

/** A sign-in must come back from the issuer within this time. */
export const SIGN_IN_MINUTES = 10;

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface SiteSignIn {
  /** A new sign-in: the issuer's authorization URL, and the state the browser keeps in a cookie. */
  begin(returnTo: string): Promise<{ url: string; state: string }>;
  /** The account that signed in, from the issuer's answer at the callback, and where to go next. */
  finish(callbackUrl: URL, state: string): Promise<{ account: string; returnTo: string }>;
}

/**
 * Sign-in on the site: the authorization code flow with PKCE, state and nonce, by `openid-client`
 * against AUTH_ISSUER with AUTH_CLIENT_ID/AUTH_CLIENT_SECRET. What a sign-in under way needs (its
 * verifier) waits in the database, so the callback may reach any instance. Undefined without a client.
 */
export function createSiteSignIn(
  db: Database,
  config: Pick<Config, 'publicUrl' | 'auth'>,
): SiteSignIn | undefined {
  const { issuer, client } = config.auth;
  if (!issuer || !client) return undefined;
  const issuerUrl = new URL(issuer);
  // Plain http only for an issuer on this machine (development and the tests' own provider).
  const options = LOOPBACK.has(issuerUrl.hostname)
    ? { execute: [oidc.allowInsecureRequests] }
    : undefined;
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(issuerUrl, client.id, client.secret, undefined, options)
      .catch((error: unknown) => {
        discovered = undefined;
        throw new AppError(
          'SIGN_IN_UNAVAILABLE',
          `The sign-in provider cannot be reached (${error instanceof Error ? error.message : 'no answer'}); try again later.`,
        );
      });
    return discovered;
  };
  const redirectUri = `${config.publicUrl}${CALLBACK_PATH}`;

  return {
    async begin(returnTo) {
      const found = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await db.signIns.insertOne({
        _id: hashOf(state),
        verifier,
        nonce,
        returnTo,
        expires: new Date(Date.now() + SIGN_IN_MINUTES * 60_000),
      });
      const url = oidc.buildAuthorizationUrl(found, {
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, state };
    },
    async finish(callbackUrl, state) {
      const pending = await db.signIns.findOneAndDelete({ _id: hashOf(state) });
      if (!pending || pending.expires.getTime() <= Date.now())
        throw new AppError('UNAUTHENTICATED', 'This sign-in has expired; start it again.');
      try {
        const tokens = await oidc.authorizationCodeGrant(await configuration(), callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const account = tokens.claims()?.sub;
        if (!account) throw new Error('no subject');
        return { account, returnTo: pending.returnTo };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError(
          'UNAUTHENTICATED',
          'The sign-in provider did not confirm the sign-in; start it again.',
        );
      }
    },
  };
}
