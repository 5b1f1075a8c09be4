import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, issueKey } from '../../src/auth/api-tokens.js';
import { recordTokenHandles } from '../../src/auth/handle-claims.js';
import { createLogger } from '../../src/logger.js';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, httpFetch, postJson } from '../support/http-client.js';
import { tokenCreate as runTokenCreate } from '../support/token-command.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const tokenCreate = (...args: string[]) => runTokenCreate(app, ...args);

const publish = async (token: string, source: string) => {
  const response = await postJson(
    `${app.url}/api/store-kidlisp`,
    { source },
    { authorization: `Bearer ${token}` },
  );
  expect(response.status).toBe(201);
  return response.body?.code as string;
};

describe('a token\u2019s handle is an author', () => {
  it('shows @ada on every face for works published with `token create --handle @ada`', async () => {
    const { code, token } = await tokenCreate('--handle', '@ada');
    expect(code).toBe(0);
    const codes = [
      await publish(token, '(wipe red) ; ada 1'),
      await publish(token, '(wipe lime) ; ada 2'),
      await publish(token, '(wipe blue) ; ada 3'),
    ];

    const home = await (await httpFetch(`${app.url}/`)).text();
    expect(home).toContain('@ada');
    expect(home).not.toMatch(new RegExp(`${codes[0]}[\\s\\S]{0,400}anonymous`));

    const authorPage = await httpFetch(`${app.url}/@ada`);
    expect(authorPage.status).toBe(200);
    const authorHtml = await authorPage.text();
    for (const published of codes) expect(authorHtml).toContain(published);

    const feed = await (await httpFetch(`${app.url}/@ada/feed.json`)).json();
    expect(feed.items).toHaveLength(3);

    const viaGraphql = await graphql(
      app.url,
      'query { author(handle: "ada") { handle works(first: 10) { edges { node { code } } } } }',
    );
    expect(viaGraphql.body.data.author.handle).toBe('@ada');
    expect(viaGraphql.body.data.author.works.edges).toHaveLength(3);

    const item = await (await httpFetch(`${app.url}/api/items/${codes[0]}`)).json();
    expect(item.author).toBe('@ada');

    const client = await connectHttp(app.url);
    try {
      const result = await client.callTool({ name: 'get_item', arguments: { code: codes[1] } });
      expect(result.structuredContent).toMatchObject({ author: '@ada' });
    } finally {
      await client.close();
    }
  });

  it('changes the home page\u2019s ETag when a handle is recorded for works already shown', async () => {
    const { key } = await issueKey(app.db, { account: 'gateway|late', scopes: ['publish'] });
    await publish(key, '(wipe gray) ; late author');
    const before = (await httpFetch(`${app.url}/`)).headers.get('etag');
    await app.db.apiTokens.updateMany({ account: 'gateway|late' }, { $set: { handle: 'late' } });
    await recordTokenHandles(app.db, createLogger('silent'));
    await postJson(`${app.url}/api/store-kidlisp`, { source: '(wipe black) ; anyone' });
    const after = await httpFetch(`${app.url}/`);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(await after.text()).toContain('@late');
  });

  it('refuses, with one line naming the holder, a handle a member holds in @handles; nothing is written', async () => {
    await app.db.handles.insertOne({ _id: 'auth0|grace', handle: 'grace' });
    const tokensBefore = await app.db.apiTokens.countDocuments();
    const refused = await tokenCreate('--handle', '@grace');
    expect(refused.code).not.toBe(0);
    expect(refused.token).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('auth0|grace');
    expect(await app.db.apiTokens.countDocuments()).toBe(tokensBefore);
    expect(await app.db.handles.countDocuments({ handle: 'grace' })).toBe(1);
    expect(await app.db.handleClaims.countDocuments({ _id: 'grace' })).toBe(0);

    const named = await tokenCreate('--handle', '@grace', '--account', 'auth0|grace');
    expect(named.code).toBe(0);
    expect((await app.db.apiTokens.findOne({ handle: 'grace' }))?.account).toBe('auth0|grace');
  });

  it('gives one new handle to one account when many creates race for it', async () => {
    const created = await Promise.all(
      Array.from({ length: 8 }, () => createApiToken(app.db, { handle: '@race' })),
    );
    const accounts = new Set(created.map((made) => made.record.account));
    expect(accounts.size).toBe(1);
    expect(await app.db.handles.countDocuments({ handle: 'race' })).toBe(1);
    expect(created.filter((made) => made.newAccount).length).toBe(1);
  });

  it('records, once at start-up, the handles of accounts that had tokens before, never taking one', async () => {
    const old = (account: string, handle: string, created: Date) => ({
      _id: `hash-${account}-${handle}`,
      account,
      handle,
      prefix: 'pgw_old000',
      created,
    });
    await app.db.apiTokens.insertMany([
      old('gateway|old-lin', 'lin', new Date('2026-01-01')),
      old('gateway|old-taker', 'hopper', new Date('2026-01-02')),
    ]);
    await app.db.handles.insertOne({ _id: 'auth0|hopper', handle: 'hopper' });
    const logger = createLogger('silent');
    expect(await recordTokenHandles(app.db, logger)).toBeGreaterThanOrEqual(1);
    expect(await recordTokenHandles(app.db, logger)).toBe(0);
    expect(await app.db.handles.findOne({ _id: 'gateway|old-lin' })).toMatchObject({
      handle: 'lin',
    });
    expect(await app.db.handles.findOne({ _id: 'gateway|old-taker' })).toBeNull();
    expect(await app.db.handles.find({ handle: 'hopper' }).toArray()).toEqual([
      { _id: 'auth0|hopper', handle: 'hopper' },
    ]);
  });
});
