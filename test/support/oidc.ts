import { once } from 'node:events';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from './app.js';
import { freePort } from './http-client.js';

export interface TestIssuer {
  issuer: string;
  jwksUrl: string;
  /** The site's client (authorization code with PKCE, a secret). */
  client: { id: string; secret: string };
  /** A JWT signed with the issuer's own key, as its tokens are: for made-up audiences and expiries. */
  sign(claims: { sub: string; aud?: string }, expiresAt?: number): Promise<string>;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  /** The site's sign-in callbacks. */
  redirectUris: string[];
  /** The protected resource (`PUBLIC_URL/mcp`) access tokens may be issued for, as JWTs. */
  resource: string;
}

/**
 * A real OpenID provider (`oidc-provider`) on 127.0.0.1: its own login and consent pages (any
 * login and password; the login is the account), dynamic client registration, PKCE, and resource
 * indicators that issue JWT access tokens for the given resource only.
 */
export async function startTestIssuer(options: TestIssuerOptions): Promise<TestIssuer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-issuer', alg: 'RS256', use: 'sig' };
  const client = { id: 'gateway-site', secret: 'gateway-site-secret-for-tests-only' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-issuer-cookie-key'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.resource) throw new errors.InvalidTarget();
          return {
            scope: 'openid',
            audience: options.resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  const server = createServer(provider.callback());
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    client,
    sign: ({ sub, aud }, expiresAt = Math.floor(Date.now() / 1000) + 600) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .setIssuer(issuer)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .setAudience(aud ?? 'unnamed')
        .sign(privateKey),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface AppWithIssuer {
  app: TestApp;
  issuer: TestIssuer;
  /** The app's PUBLIC_URL, the address the browser and the issuer know it by. */
  publicUrl: string;
  close(): Promise<void>;
}

/**
 * The app with AUTH_ISSUER set to a test issuer, on a port chosen first so its PUBLIC_URL can be
 * registered at the issuer; `signIn` also gives it the site's client (AUTH_CLIENT_ID/SECRET).
 */
export async function startAppWithIssuer(options: { signIn: boolean }): Promise<AppWithIssuer> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const issuer = await startTestIssuer({
    redirectUris: [`${publicUrl}/auth/callback`],
    resource: `${publicUrl}/mcp`,
  });
  const app = await startTestApp({
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    AUTH_ISSUER: issuer.issuer,
    AUTH_JWKS_URL: issuer.jwksUrl,
    ...(options.signIn
      ? { AUTH_CLIENT_ID: issuer.client.id, AUTH_CLIENT_SECRET: issuer.client.secret }
      : {}),
  });
  return {
    app,
    issuer,
    publicUrl,
    async close() {
      await app.close();
      await issuer.close();
    },
  };
}

/**
 * Signs `login` in on the site as a person does: the keys page's sign-in link, the test issuer's
 * own login and consent pages, and back to the keys page, which then says who is signed in.
 */
export async function signInOnSite(page: Page, publicUrl: string, login: string): Promise<void> {
  await page.goto(`${publicUrl}/settings/keys`);
  await page.waitForSelector('#sign-in-link');
  await page.click('#sign-in-link');
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any password');
  await page.click('button[type=submit]');
  await page.click('button:has-text("Continue")');
  await page.waitForURL(`${publicUrl}/settings/keys`);
  await page.waitForFunction(() =>
    document.getElementById('who-text')?.textContent?.includes('signed in'),
  );
}
