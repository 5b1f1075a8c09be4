import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { connectHttp, connectStdio } from '../mcp/support.js';
import { failureOf } from '../mcp/surface.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, postJson } from '../support/http-client.js';

// Two publishes per client per hour: the third is refused, whichever face it comes through.
const LIMIT = 2;
const WINDOW_SECONDS = 3600;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    RATE_LIMIT_PUBLISH: String(LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  });
});
afterAll(() => app.close());

/** A client of its own: a token of its own account, so each test has a fresh allowance. */
let accounts = 0;
async function newClientToken(): Promise<string> {
  const n = ++accounts;
  await app.db.handles.insertOne({ _id: `auth0|limited-${n}`, handle: `limited-${n}` });
  return (await createApiToken(app.db, { handle: `@limited-${n}`, account: `auth0|limited-${n}` }))
    .token;
}

const rest = (token: string, source: string) =>
  postJson(`${app.url}/api/store-kidlisp`, { source }, { authorization: `Bearer ${token}` });

const PUBLISH = 'mutation ($source: String!) { publishKidlisp(source: $source) { code } }';

/** A Retry-After a client can act on: whole seconds, at least 1, within the window. */
function expectRetryAfter(value: string | null) {
  expect(value).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe('the publish rate limit', () => {
  it('REST: the publish over the limit answers 429 RATE_LIMITED with Retry-After, and writes nothing', async () => {
    const token = await newClientToken();
    for (let i = 0; i < LIMIT; i++)
      expect((await rest(token, `(ink red) ; rest ${i}`)).status).toBe(201);
    const refused = await rest(token, '(ink red) ; rest over');
    expect(refused.status).toBe(429);
    expectRetryAfter(refused.headers.get('retry-after'));
    expect(refused.body).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: Number(refused.headers.get('retry-after')),
    });
    expect(await app.db.kidlisp.countDocuments({ source: '(ink red) ; rest over' })).toBe(0);
  });

  it('GraphQL: the publish over the limit carries RATE_LIMITED and a Retry-After header', async () => {
    const token = await newClientToken();
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < LIMIT; i++) {
      const ok = await graphql(app.url, PUBLISH, { source: `(ink blue) ; gql ${i}` }, auth);
      expect(ok.body.errors).toBeUndefined();
    }
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: PUBLISH, variables: { source: '(ink blue) ; gql over' } }),
    });
    const body = (await response.json()) as {
      errors?: { extensions?: { code?: string } }[];
    };
    expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expectRetryAfter(response.headers.get('retry-after'));
  });

  it('counts every face against one allowance per client', async () => {
    const token = await newClientToken();
    expect((await rest(token, '(ink green) ; shared 1')).status).toBe(201);
    const ok = await graphql(
      app.url,
      PUBLISH,
      { source: '(ink green) ; shared 2' },
      { authorization: `Bearer ${token}` },
    );
    expect(ok.body.errors).toBeUndefined();
    expect((await rest(token, '(ink green) ; shared 3')).status).toBe(429);
  });

  describe.each([
    ['/mcp (in-process)', (url: string, token: string) => connectHttp(url, token)],
    ['the stdio command (over REST)', (url: string, token: string) => connectStdio(url, token)],
  ])('MCP through %s', (_face, connect) => {
    let client: Client | undefined;
    afterAll(() => client?.close());

    it('answers the publish over the limit with a tool error whose code is RATE_LIMITED', async () => {
      client = await connect(app.url, await newClientToken());
      const call = (source: string) =>
        (client as Client).callTool({ name: 'publish_kidlisp', arguments: { source } });
      for (let i = 0; i < LIMIT; i++) {
        const ok = await call(`(ink yellow) ; mcp ${Math.random()}`);
        expect(ok.isError ?? false).toBe(false);
      }
      const refused = await call('(ink yellow) ; mcp over');
      expect(refused.isError).toBe(true);
      expect(failureOf(refused)).toMatchObject({ code: 'RATE_LIMITED' });
    });
  });
});
