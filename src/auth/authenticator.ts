import { createRemoteJWKSet, jwtVerify } from 'jose';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { findActiveApiToken, looksLikeApiToken } from './api-tokens.js';

/** The account a request acts for. */
export interface Viewer {
  account: string;
}

export interface Authenticator {
  /** No header: anonymous (null). A header that does not prove an account: 401, before anything is written. */
  viewerFor(authorization: string | undefined): Promise<Viewer | null>;
}

const invalidToken = (why: string) =>
  new AppError('UNAUTHENTICATED', `The bearer token is ${why}.`);

export function createAuthenticator(db: Database, auth: Config['auth']): Authenticator {
  const jwks = auth.issuer && auth.jwksUrl ? createRemoteJWKSet(new URL(auth.jwksUrl)) : undefined;

  async function viewerForJwt(token: string): Promise<Viewer> {
    if (!jwks) throw invalidToken('not recognised');
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: auth.issuer,
        ...(auth.audience ? { audience: auth.audience } : {}),
      });
      if (!payload.sub) throw invalidToken('missing a subject');
      return { account: payload.sub };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw invalidToken(
        (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid',
      );
    }
  }

  return {
    async viewerFor(authorization) {
      if (authorization === undefined) return null;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1])
        throw invalidToken('missing or malformed (expected "Authorization: Bearer <token>")');
      const token = match[1];
      if (!looksLikeApiToken(token)) return viewerForJwt(token);
      const record = await findActiveApiToken(db, token);
      if (!record) throw invalidToken('invalid or revoked');
      return { account: record.account };
    },
  };
}
