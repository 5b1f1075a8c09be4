import {
  auth,
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, revokeApiToken } from '../../src/auth/api-tokens.js';
import { type Browser, launchBrowser } from '../e2e/support/browser.js';
import type { TestApp } from '../support/app.js';
import { getJson, httpFetch, postJson } from '../support/http-client.js';
import { type AppWithIssuer, startAppWithIssuer, type TestIssuer } from '../support/oidc.js';

let app: TestApp;
let issuer: TestIssuer;
let browser: Browser;
let publicUrl: string;
let started: AppWithIssuer | undefined;

beforeAll(async () => {
  [started, browser] = await Promise.all([startAppWithIssuer({ signIn: false }), launchBrowser()]);
  ({ app, issuer, publicUrl } = started);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await started?.close();
});

const metadataUrl = () => `${publicUrl}/.well-known/oauth-protected-resource/mcp`;

/** A tools/list over plain HTTP, as any MCP client's first request after initialize looks. */
const mcpCall = (authorization?: string) =>
  httpFetch(`${publicUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

/** An MCP client's OAuth state, kept in memory as a desktop client keeps it on disk. */
class MemoryOAuthClient implements OAuthClientProvider {
  information: Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0] | undefined;
  saved: Parameters<OAuthClientProvider['saveTokens']>[0] | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata() {
    return {
      client_name: 'test assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: NonNullable<MemoryOAuthClient['information']>) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<MemoryOAuthClient['saved']>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Signs in on the provider's own login and consent pages; answers the code it sends to `redirectUrl`. */
async function approveInBrowser(authorizationUrl: URL, redirectUrl: string, login: string) {
  const page = await browser.newPage();
  try {
    await page.goto(authorizationUrl.href);
    await page.fill('input[name=login]', login);
    await page.fill('input[name=password]', 'any password');
    await page.click('button[type=submit]');
    await page.waitForSelector('button:has-text("Continue")');
    await page.click('button:has-text("Continue")');
    // The redirect lands on the client's own address (nothing of the client listens there in this test).
    await page.waitForURL(`${redirectUrl}**`);
    const answer = new URL(page.url()).searchParams;
    const code = answer.get('code');
    if (!code) throw new Error(`the provider sent no code: ${page.url()}`);
    return { code, iss: answer.get('iss') ?? undefined };
  } finally {
    await page.close();
  }
}

describe('/mcp as an OAuth 2.1 protected resource', () => {
  it('publishes its metadata at both well-known paths', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const { status, body } = await getJson(`${publicUrl}${path}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        resource: `${publicUrl}/mcp`,
        authorization_servers: [issuer.issuer],
      });
    }
    const docs = await getJson(`${publicUrl}/api`, { accept: 'application/json' });
    expect(docs.body?.authentication?.oauth?.metadata).toBe(metadataUrl());
  });

  it('answers a bad, expired, revoked or foreign-audience token with 401 naming the metadata', async () => {
    const { key, record } = await issueKey(app.db, { account: 'member|zed', scopes: ['publish'] });
    await revokeApiToken(app.db, key);
    expect(record.account).toBe('member|zed');
    const tokens = {
      malformed: 'Bearer not-a-token',
      revoked: `Bearer ${key}`,
      expired: `Bearer ${await issuer.sign({ sub: 'member|zed', aud: `${publicUrl}/mcp` }, Math.floor(Date.now() / 1000) - 60)}`,
      'another audience': `Bearer ${await issuer.sign({ sub: 'member|zed', aud: 'https://elsewhere.example/mcp' })}`,
    };
    for (const [why, authorization] of Object.entries(tokens)) {
      const response = await mcpCall(authorization);
      expect(response.status, why).toBe(401);
      expect(response.headers.get('www-authenticate'), why).toBe(
        `Bearer error="invalid_token", resource_metadata="${metadataUrl()}"`,
      );
      expect((await response.json()).code, why).toBe('UNAUTHENTICATED');
    }
    // The same foreign-audience token is a valid JWT of the issuer: the REST face (no AUTH_AUDIENCE) takes it.
    const rest = await postJson(
      `${publicUrl}/api/store-clock`,
      { source: 'c g c' },
      { authorization: tokens['another audience'] },
    );
    expect(rest.status).toBe(201);
  });

  it('keeps anonymous calls working, and takes a JWT issued for this resource', async () => {
    expect((await mcpCall()).status).toBe(200);
    const token = await issuer.sign({ sub: 'member|amy', aud: `${publicUrl}/mcp` });
    expect((await mcpCall(`Bearer ${token}`)).status).toBe(200);
  });

  it('lets the MCP SDK client discover the issuer, register, sign in with PKCE and publish as the member', async () => {
    const redirectUrl = `${publicUrl.replace('127.0.0.1', 'localhost')}/oauth-client-callback`;
    const provider = new MemoryOAuthClient(redirectUrl);
    const serverUrl = `${publicUrl}/mcp`;
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    expect(provider.information?.client_id).toBeTruthy(); // dynamic client registration
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.origin).toBe(issuer.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(serverUrl);
    const { code, iss } = await approveInBrowser(authorizationUrl, redirectUrl, 'mcp-member');
    expect(
      await auth(provider, { serverUrl, authorizationCode: code, ...(iss ? { iss } : {}) }),
    ).toBe('AUTHORIZED');

    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }),
    );
    try {
      const result = await client.callTool({
        name: 'publish_kidlisp',
        arguments: { source: '(wipe coral) ; via oauth' },
      });
      const published = result.structuredContent as { code: string };
      expect((await app.db.kidlisp.findOne({ code: published.code }))?.user).toBe('mcp-member');
    } finally {
      await client.close();
    }
  });
});
