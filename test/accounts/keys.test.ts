import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/auth/api-tokens.js';
import { KEYS_PER_HOUR } from '../../src/operations/keys/index.js';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, httpFetch, postJson } from '../support/http-client.js';

let app: TestApp;
/** A second instance on the same database, as a deployment with two processes has. */
let other: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  other = await startTestApp({ MONGODB_URI: app.mongo.uri, MONGODB_DB: app.db.db.databaseName });
});
afterAll(async () => {
  await other.close();
  await app.close();
});

/** A member's first key, as `token create` gives it (publish and keys). */
const rootKey = async (account: string) =>
  (await issueKey(app.db, { account, scopes: ['publish', 'keys'] })).key;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const listKeys = async (key: string) => {
  const response = await httpFetch(`${app.url}/api/keys`, { headers: bearer(key) });
  return { status: response.status, headers: response.headers, body: await response.json() };
};

const revoke = (key: string, id: string, base = app.url) =>
  httpFetch(`${base}/api/keys/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: bearer(key),
  });

describe('keys a member makes', () => {
  it('creates a key shown once, lists it without its secret, and the key publishes as the member', async () => {
    const root = await rootKey('member|ann');
    const created = await postJson(
      `${app.url}/api/keys`,
      { name: 'my assistant', expiresInDays: 30 },
      bearer(root),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'my assistant',
      scopes: ['publish'],
      lastUsed: null,
    });
    const { key, id } = created.body as { key: string; id: string };
    expect(key).toMatch(/^pgw_/);
    const days = (Date.parse(created.body?.expires) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(JSON.stringify(await app.db.apiTokens.find().toArray())).not.toContain(key);

    const published = await postJson(
      `${app.url}/api/store-kidlisp`,
      { source: '(wipe olive) ; ann' },
      bearer(key),
    );
    expect(published.status).toBe(201);
    expect((await app.db.kidlisp.findOne({ code: published.body?.code }))?.user).toBe('member|ann');

    const listed = await listKeys(root);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    const mine = listed.body.keys.find((one: { id: string }) => one.id === id);
    expect(mine).toMatchObject({ name: 'my assistant', prefix: key.slice(0, 10) });
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(mine.lastUsed).not.toBeNull();
  });

  it('refuses to publish with a key without the publish scope (403 INSUFFICIENT_SCOPE) on every face', async () => {
    const root = await rootKey('member|ben');
    const created = await postJson(
      `${app.url}/api/keys`,
      { name: 'keys only', scopes: ['keys'] },
      bearer(root),
    );
    expect(created.status).toBe(201);
    const keysOnly = created.body?.key as string;
    const before = await app.db.kidlisp.countDocuments();

    const rest = await postJson(
      `${app.url}/api/store-kidlisp`,
      { source: '(wipe plum) ; no scope' },
      bearer(keysOnly),
    );
    expect(rest.status).toBe(403);
    expect(rest.body?.code).toBe('INSUFFICIENT_SCOPE');
    const viaGraphql = await graphql(
      app.url,
      'mutation { publishClock(source: "c d e") { code } }',
      {},
      bearer(keysOnly),
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const client = await connectHttp(app.url, keysOnly);
    try {
      const result = await client.callTool({
        name: 'publish_kidlisp',
        arguments: { source: '(wipe plum) ; mcp' },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('INSUFFICIENT_SCOPE');
    } finally {
      await client.close();
    }
    expect(await app.db.kidlisp.countDocuments()).toBe(before);
    // It may still manage keys.
    expect((await listKeys(keysOnly)).status).toBe(200);
  });

  it('refuses key management to a publish-only key, and to nobody at all', async () => {
    const root = await rootKey('member|cy');
    const publishOnly = (await postJson(`${app.url}/api/keys`, { name: 'pub' }, bearer(root))).body
      ?.key as string;
    const denied = await listKeys(publishOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');
    const anonymous = await postJson(`${app.url}/api/keys`, { name: 'x' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body?.code).toBe('UNAUTHENTICATED');
  });

  it('answers bad input with the contract\u2019s errors', async () => {
    const root = await rootKey('member|dee');
    for (const [body, code] of [
      [{}, 'NAME_INVALID'],
      [{ name: '  ' }, 'NAME_INVALID'],
      [{ name: 'a', scopes: ['admin'] }, 'INVALID_INPUT'],
      [{ name: 'a', scopes: [] }, 'INVALID_INPUT'],
      [{ name: 'a', expiresInDays: 0 }, 'INVALID_INPUT'],
      [{ name: 'a', expiresInDays: 1.5 }, 'INVALID_INPUT'],
    ] as const) {
      const response = await postJson(`${app.url}/api/keys`, body, bearer(root));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body?.code, JSON.stringify(body)).toBe(code);
    }
  });

  it('lets a member see and revoke only their own keys: another\u2019s id answers 404 and leaves it working', async () => {
    const eve = await rootKey('member|eve');
    const fay = await rootKey('member|fay');
    const faysKey = (await postJson(`${app.url}/api/keys`, { name: 'fay bot' }, bearer(fay)))
      .body as {
      id: string;
      key: string;
    };
    expect((await listKeys(eve)).body.keys.map((one: { id: string }) => one.id)).not.toContain(
      faysKey.id,
    );
    const response = await revoke(eve, faysKey.id);
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('KEY_NOT_FOUND');
    const viaGraphql = await graphql(
      app.url,
      'mutation($id: String!) { revokeApiKey(id: $id) }',
      { id: faysKey.id },
      bearer(eve),
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('KEY_NOT_FOUND');
    const stillWorks = await postJson(
      `${app.url}/api/store-clock`,
      { source: 'c e g' },
      bearer(faysKey.key),
    );
    expect(stillWorks.status).toBe(201);
  });

  it('makes a revoked key answer 401 on every face of every instance within a second', async () => {
    const root = await rootKey('member|gus');
    const made = (await postJson(`${app.url}/api/keys`, { name: 'soon gone' }, bearer(root)))
      .body as {
      id: string;
      key: string;
    };
    // Used on both instances first, so nothing could be answered from a remembered lookup.
    for (const base of [app.url, other.url])
      expect(
        (
          await postJson(
            `${base}/api/store-kidlisp`,
            { source: `(wipe ${base.length}) ; gus ${base}` },
            bearer(made.key),
          )
        ).status,
      ).toBe(201);
    const revoked = await revoke(root, made.id, other.url);
    expect(revoked.status).toBe(204);
    const revokedAt = Date.now();

    for (const base of [app.url, other.url]) {
      const rest = await postJson(
        `${base}/api/store-clock`,
        { source: `d f a ; ${base}` },
        bearer(made.key),
      );
      expect(rest.status).toBe(401);
      expect(rest.headers.get('www-authenticate')).toContain('Bearer');
      const viaGraphql = await graphql(base, '{ viewer { account } }', {}, bearer(made.key));
      expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      await expect(connectHttp(base, made.key)).rejects.toThrow();
    }
    expect(Date.now() - revokedAt).toBeLessThan(1_000 + 2_000); // the checks themselves take time
    expect((await listKeys(root)).body.keys.map((one: { id: string }) => one.id)).not.toContain(
      made.id,
    );
  });

  it('makes an expired key answer 401', async () => {
    const { key, record } = await issueKey(app.db, { account: 'member|hal', scopes: ['publish'] });
    await app.db.apiTokens.updateOne(
      { _id: record._id },
      { $set: { expires: new Date(Date.now() - 1) } },
    );
    const response = await postJson(`${app.url}/api/store-clock`, { source: 'e g b' }, bearer(key));
    expect(response.status).toBe(401);
    expect(response.body?.error).toMatch(/expired/);
  });

  it('works the same over GraphQL: createApiKey, apiKeys, revokeApiKey', async () => {
    const root = await rootKey('member|ida');
    const created = await graphql(
      app.url,
      'mutation { createApiKey(name: "gql", scopes: [publish, keys], expiresInDays: 7) { key apiKey { id name scopes expires } } }',
      {},
      bearer(root),
    );
    const { key, apiKey } = created.body.data.createApiKey;
    expect(apiKey).toMatchObject({ name: 'gql', scopes: ['publish', 'keys'] });
    const listed = await graphql(app.url, '{ apiKeys { id name } }', {}, bearer(key));
    expect(listed.body.data.apiKeys.map((one: { id: string }) => one.id)).toContain(apiKey.id);
    const revoked = await graphql(
      app.url,
      'mutation($id: String!) { revokeApiKey(id: $id) }',
      { id: apiKey.id },
      bearer(root),
    );
    expect(revoked.body.data.revokeApiKey).toBe(true);
    const after = await graphql(app.url, '{ apiKeys { id } }', {}, bearer(key));
    expect(after.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it(`limits each account to ${KEYS_PER_HOUR} new keys an hour, whichever instance is asked`, async () => {
    const root = await rootKey('member|jo');
    const statuses: number[] = [];
    for (let n = 0; n <= KEYS_PER_HOUR; n += 1)
      statuses.push(
        (await postJson(`${n % 2 ? other.url : app.url}/api/keys`, { name: `k${n}` }, bearer(root)))
          .status,
      );
    expect(statuses.slice(0, KEYS_PER_HOUR).every((status) => status === 201)).toBe(true);
    expect(statuses[KEYS_PER_HOUR]).toBe(429);
    // Another account is not held back.
    expect(
      (await postJson(`${app.url}/api/keys`, { name: 'k' }, bearer(await rootKey('member|kim'))))
        .status,
    ).toBe(201);
  });
});
