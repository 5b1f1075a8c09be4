import { createRemoteJWKSet, jwtVerify } from 'jose';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { findActiveApiToken, looksLikeApiToken } from './api-tokens.js';
import { noteKeyUse } from './key-use.js';
import { SCOPES, type Scope, scopesOf } from './scopes.js';
import { sessionAccount } from './sessions.js';

/** The account a request acts for, and what its credentials may do. */
export interface Viewer {
  account: string;
  scopes: readonly Scope[];
  /** What proved it: a key, a JWT of the issuer, or the site's sign-in cookie. */
  via: 'key' | 'jwt' | 'session';
}

export interface ViewerOptions {
  /**
   * The resource the request is for (`PUBLIC_URL/mcp`): a JWT must then name it, or AUTH_AUDIENCE,
   * as its audience (RFC 8707; the MCP authorization specification).
   */
  resource?: string;
}

export interface Authenticator {
  /** No header: anonymous (null). A header that does not prove an account: 401, before anything is written. */
  viewerFor(authorization: string | undefined, options?: ViewerOptions): Promise<Viewer | null>;
  /** The member of a sign-in cookie (src/auth/sessions.ts); null once it ended or expired. */
  viewerForSession(token: string): Promise<Viewer | null>;
}

const invalidToken = (why: string) =>
  new AppError('UNAUTHENTICATED', `The bearer token is ${why}.`);

export function createAuthenticator(db: Database, auth: Config['auth']): Authenticator {
  const jwks = auth.issuer && auth.jwksUrl ? createRemoteJWKSet(new URL(auth.jwksUrl)) : undefined;

  async function viewerForJwt(token: string, options: ViewerOptions): Promise<Viewer> {
    if (!jwks) throw invalidToken('not recognised');
    const audiences = [options.resource, auth.audience].filter(
      (audience): audience is string => audience !== undefined,
    );
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: auth.issuer,
        ...(audiences.length > 0 ? { audience: audiences } : {}),
      });
      if (!payload.sub) throw invalidToken('missing a subject');
      return { account: payload.sub, scopes: SCOPES, via: 'jwt' };
    } catch (error) {
      if (error instanceof AppError) throw error;
      const code = (error as { code?: string }).code;
      throw invalidToken(
        code === 'ERR_JWT_EXPIRED'
          ? 'expired'
          : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' &&
              (error as { claim?: string }).claim === 'aud'
            ? 'for another audience'
            : 'invalid',
      );
    }
  }

  return {
    async viewerFor(authorization, options = {}) {
      if (authorization === undefined) return null;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1])
        throw invalidToken('missing or malformed (expected "Authorization: Bearer <token>")');
      const token = match[1];
      if (!looksLikeApiToken(token)) return viewerForJwt(token, options);
      // Read from the database every time: a key revoked or expired on any instance fails at once.
      const record = await findActiveApiToken(db, token);
      if (!record) throw invalidToken('invalid, expired or revoked');
      noteKeyUse(db, record._id);
      return { account: record.account, scopes: scopesOf(record.scopes), via: 'key' };
    },
    async viewerForSession(token) {
      const account = await sessionAccount(db, token);
      return account ? { account, scopes: SCOPES, via: 'session' } : null;
    },
  };
}
