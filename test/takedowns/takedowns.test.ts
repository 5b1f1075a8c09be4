import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { sweepOrphanedClaims } from '../../src/db/code-registry.js';
import { readBsonFile } from '../../src/db/dump.js';
import { sourceHash } from '../../src/domain/hash.js';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, httpFetch } from '../support/http-client.js';
import { startTestMongo, type TestMongo } from '../support/mongo.js';
import { runCli } from '../support/processes.js';

// Take-downs (docs/contract.md, Take-downs): two instances over one database, the operator's
// commands run as the built bin, and every face a visitor, a client or an assistant reads.

let mongo: TestMongo;
let a: TestApp;
let b: TestApp;
let dataDir: string;
let dbName: string;
const http = new Map<TestApp, HttpClient>();

beforeAll(async () => {
  mongo = await startTestMongo();
  dbName = `takedowns_${process.pid}_${Date.now().toString(36)}`;
  dataDir = await mkdtemp(join(tmpdir(), 'takedowns-cli-'));
  const env = { MONGODB_URI: mongo.uri, MONGODB_DB: dbName };
  a = await startTestApp(env);
  b = await startTestApp(env);
  for (const app of [a, b]) http.set(app, createHttpClient(app.url));
}, 60_000);

afterAll(async () => {
  for (const client of http.values()) client.close();
  await a?.close();
  await b?.close();
  await mongo?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const work = (...args: string[]) =>
  runCli(['work', ...args], { MONGODB_URI: mongo.uri, MONGODB_DB: dbName, DATA_DIR: dataDir });

const client = (app: TestApp) => http.get(app) as HttpClient;
/** A work's card on the home and author pages. */
const card = (code: string) => `data-code="${code}"`;

async function feedCodes(app: TestApp): Promise<string[]> {
  const feed = await client(app).get('/feed.json');
  return (feed.json.items as { _work: { code: string } }[]).map((entry) => entry._work.code);
}
const html = { accept: 'text/html' };

async function publishKidlisp(app: TestApp, source: string, extra: Record<string, string> = {}) {
  const { token, ...body } = extra;
  const response = await client(app).post(
    '/api/store-kidlisp',
    { source, ...body },
    token ? { authorization: `Bearer ${token}` } : {},
  );
  expect(response.status, response.text).toBe(201);
  return response.json.code as string;
}

async function graphqlOn(app: TestApp, query: string, token?: string) {
  const response = await client(app).graphql(
    query,
    {},
    token ? { authorization: `Bearer ${token}` } : {},
  );
  return response.json as { data?: any; errors?: { extensions?: { code?: string } }[] };
}

async function mcpGetItem(app: TestApp, code: string) {
  const mcp = await connectHttp(app.url);
  try {
    return await mcp.callTool({ name: 'get_item', arguments: { code } });
  } finally {
    await mcp.close();
  }
}

/** Polls `check` until it holds or `ms` pass; answers how long it took (or throws its last failure). */
async function within(ms: number, check: () => Promise<void>): Promise<number> {
  const start = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - start;
    } catch (error) {
      if (Date.now() - start > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('an operator takes a work down', () => {
  const marker = `takedownmarker${Date.now().toString(36)}`;
  const source = `(wipe navy)\n(ink yellow)\n; ${marker}\n(circle 128 128 64)`;
  const reason = 'spam; reported by private-person@example.com';
  let alice: string;
  let code: string;
  let remix: string;
  const homeTags = new Map<TestApp, string>();

  beforeAll(async () => {
    const created = await createApiToken(a.db, { handle: '@takedown-alice' });
    alice = created.token;
    await a.db.handles.updateOne(
      { _id: created.record.account },
      { $set: { handle: 'takedown-alice' } },
      { upsert: true },
    );
    code = await publishKidlisp(a, source, { token: alice });
    remix = await publishKidlisp(a, `(wipe purple)\n; ${marker} remix\n(circle 10 10 5)`, {
      remixOf: code,
    });
    // Every instance keeps what it can: the page (replayed before express), the raw file, the
    // home page with its ETag, the author's page and the feed.
    for (const app of [a, b]) {
      for (let i = 0; i < 2; i++) {
        expect((await client(app).get(`/${code}`, html)).status).toBe(200);
        expect((await client(app).get(`/${code}.lisp`)).status).toBe(200);
        expect((await client(app).get(`/${remix}`, html)).status).toBe(200);
      }
      const home = await client(app).get('/', html);
      expect(home.text).toContain(card(code));
      homeTags.set(app, home.headers.etag as string);
      expect(
        (await client(app).get('/', { ...html, 'if-none-match': home.headers.etag as string }))
          .status,
      ).toBe(304);
      expect((await client(app).get('/@takedown-alice', html)).text).toContain(card(code));
      expect(await feedCodes(app)).toContain(code);
    }
  }, 60_000);

  it('leaves every face of both instances within a second, says so with 410, and keeps the reason private', async () => {
    const removed = await work('remove', code, '--reason', reason);
    expect(removed, removed.stderr).toMatchObject({
      code: 0,
      stdout: `removed ${code} (kidlisp)\n`,
    });

    const took: number[] = [];
    for (const app of [a, b]) {
      took.push(
        await within(1_000, async () => {
          const page = await client(app).get(`/${code}`, html);
          expect(page.status).toBe(410);
          expect((await client(app).get(`/${code}.lisp`)).status).toBe(410);
          const home = await client(app).get('/', {
            ...html,
            'if-none-match': homeTags.get(app) as string,
          });
          expect(home.status).toBe(200);
          expect(home.text).toContain(card(remix));
          expect(home.text).not.toContain(card(code));
        }),
      );
      const page = await client(app).get(`/${code}`, html);
      expect(page.text).toContain('removed by the operators');
      expect(page.text).not.toContain('private-person');
      expect(page.text).not.toContain(marker);

      const asJson = await client(app).get(`/${code}`, { accept: 'application/json' });
      expect(asJson.status).toBe(410);
      expect(asJson.json.code).toBe('ITEM_REMOVED');

      const facts = await client(app).get(`/api/items/${code}`);
      expect(facts.status).toBe(410);
      expect(facts.json).toMatchObject({ code: 'ITEM_REMOVED', removedBy: 'operator' });
      expect(facts.text).not.toContain('private-person');
      expect((await client(app).get(`/api/store-kidlisp?code=${code}`)).status).toBe(410);

      const item = await graphqlOn(app, `{ item(code: "${code}") { code } }`);
      expect(item.data?.item).toBeNull();
      expect(item.errors?.[0]?.extensions?.code).toBe('ITEM_REMOVED');

      const tool = await mcpGetItem(app, code);
      expect(tool.isError).toBe(true);
      expect(JSON.stringify(tool.content)).toContain('ITEM_REMOVED');

      expect((await client(app).get(`/thumbnail/${code}.png`)).status).toBe(410);
      const oembed = await client(app).get(
        `/oembed?url=${encodeURIComponent(`${app.url}/${code}`)}`,
      );
      expect(oembed.status).toBe(410);

      const author = await client(app).get('/@takedown-alice', html);
      expect(author.status).toBe(200);
      expect(author.text).not.toContain(card(code));
      expect(await feedCodes(app)).toEqual(expect.arrayContaining([remix]));
      expect(await feedCodes(app)).not.toContain(code);
      const search = await client(app).get(`/api/items?search=${marker}`);
      expect(search.json.items.map((found: { code: string }) => found.code)).toEqual([remix]);
      const lists = await graphqlOn(
        app,
        '{ published(first: 100) { edges { node { code } } } topKidlisp(limit: 20) { code } }',
      );
      expect(lists.data.published.edges.map((edge: any) => edge.node.code)).not.toContain(code);
      expect(lists.data.topKidlisp.map((top: any) => top.code)).not.toContain(code);

      // The remix stays, and names its parent as removed.
      const remixPage = await client(app).get(`/${remix}`, html);
      expect(remixPage.status).toBe(200);
      expect(remixPage.text).toContain('(removed)');
      expect(remixPage.text).not.toContain(`href="/${code}"`);
      const lineage = await graphqlOn(
        app,
        `{ item(code: "${remix}") { remixOf { code } remixOfRemoved } }`,
      );
      expect(lineage.data.item).toEqual({ remixOf: null, remixOfRemoved: true });
    }
    expect(Math.max(...took)).toBeLessThan(1_000);

    const listed = await work('list-removed');
    expect(listed.stdout).toContain(`${code}  kidlisp`);
    expect(listed.stdout).toContain(reason);
  }, 60_000);

  it('refuses the same source again and stores nothing', async () => {
    const before = await a.db.codes.countDocuments();
    for (const app of [a, b]) {
      const again = await client(app).post('/api/store-kidlisp', { source: `  ${source}  ` });
      expect(again.status).toBe(410);
      expect(again.json.code).toBe('ITEM_REMOVED');
    }
    expect(await a.db.kidlisp.countDocuments({ hash: sourceHash(source) })).toBe(0);
    expect(await a.db.codes.countDocuments()).toBe(before);
    // Its code stays claimed, even by the start-up sweep of claims without a record.
    await sweepOrphanedClaims(a.db, new Date(Date.now() + 60_000));
    expect(await a.db.codes.findOne({ _id: code })).not.toBeNull();
    const asRemix = await client(a).post('/api/store-kidlisp', {
      source: '(wipe red)',
      remixOf: code,
    });
    expect(asRemix.status).toBe(410);
    expect(asRemix.json).toMatchObject({ code: 'ITEM_REMOVED', field: 'remixOf' });
  });

  it('is brought back whole by work restore, on both instances within a second', async () => {
    const restored = await work('restore', code);
    expect(restored, restored.stderr).toMatchObject({
      code: 0,
      stdout: `restored ${code} (kidlisp)\n`,
    });
    for (const app of [a, b]) {
      await within(1_000, async () => {
        expect((await client(app).get(`/${code}`, html)).status).toBe(200);
        expect((await client(app).get('/', html)).text).toContain(card(code));
        // The remix's kept page names its parent again once this instance has seen the restore.
        expect((await client(app).get(`/${remix}`, html)).text).toContain(`href="/${code}"`);
      });
      const facts = await client(app).get(`/api/items/${code}`);
      expect(facts.json).toMatchObject({ code, source, author: '@takedown-alice' });
      const search = await client(app).get(`/api/items?search=${marker}&sort=recent`);
      expect(search.json.items.map((found: { code: string }) => found.code).sort()).toEqual(
        [code, remix].sort(),
      );
    }
    expect((await work('list-removed')).stdout).toBe('');
  }, 30_000);
});

describe('a member deletes their own work', () => {
  let owner: string;
  let other: string;
  let code: string;
  const source = `(wipe green)\n; deleted by its author ${Date.now()}`;

  beforeAll(async () => {
    owner = (await createApiToken(a.db, { handle: '@takedown-owner' })).token;
    other = (await createApiToken(a.db, { handle: '@takedown-other' })).token;
    code = await publishKidlisp(a, source, { token: owner });
  });

  it('cannot delete another account’s work, nor anonymously', async () => {
    const byOther = await httpFetch(`${a.url}/api/items/${code}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${other}` },
    });
    expect(byOther.status).toBe(404);
    expect(((await byOther.json()) as { code: string }).code).toBe('ITEM_NOT_FOUND');
    const anonymous = await httpFetch(`${a.url}/api/items/${code}`, { method: 'DELETE' });
    expect(anonymous.status).toBe(401);
    const viaGraphql = await graphqlOn(
      b,
      `mutation { deleteWork(code: "${code}") { code } }`,
      other,
    );
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('ITEM_NOT_FOUND');
    expect((await client(b).get(`/api/items/${code}`)).status).toBe(200);
  });

  it('deletes it with their key: gone at once, and the same source may be published anew', async () => {
    const deleted = await httpFetch(`${b.url}/api/items/${code}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ code, address: code, deleted: true });
    const page = await client(b).get(`/${code}`, html);
    expect(page.status).toBe(410);
    expect(page.text).toContain('deleted by its author');
    await within(1_000, async () => {
      expect((await client(a).get(`/api/items/${code}`)).status).toBe(410);
    });
    const again = await client(a).post('/api/store-kidlisp', { source });
    expect(again.status).toBe(201);
    expect(again.json.code).not.toBe(code);
  });

  it('stays in the database, marked, and db export keeps the mark', async () => {
    const out = join(dataDir, 'export');
    const exported = await runCli(['db', 'export', '--out', out], {
      MONGODB_URI: mongo.uri,
      MONGODB_DB: dbName,
      DATA_DIR: dataDir,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const entries = [
      ...readBsonFile(await readFile(join(out, dbName, 'removed-works.bson'))),
    ] as Document[];
    const entry = entries.find((removed) => removed._id === code);
    expect(entry).toMatchObject({ kind: 'kidlisp', by: 'author', record: { code, source } });
  });

  it('cannot be restored over the same source published anew', async () => {
    const restore = await work('restore', code);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(`${code} cannot be restored`);
    expect((await client(a).get(`/api/items/${code}`)).status).toBe(410);
  });

  it('deletes through GraphQL deleteWork too', async () => {
    const mine = await publishKidlisp(a, `(wipe blue)\n; graphql delete ${Date.now()}`, {
      token: owner,
    });
    const answer = await graphqlOn(
      a,
      `mutation { deleteWork(code: "${mine}") { code address deleted } }`,
      owner,
    );
    expect(answer.data.deleteWork).toEqual({ code: mine, address: mine, deleted: true });
    expect((await client(a).get(`/api/items/${mine}`)).json.code).toBe('ITEM_REMOVED');
  });
});

describe('visitors report a work', () => {
  let code: string;
  const form = (app: TestApp, body: string, headers: Record<string, string>) =>
    client(app).send(`/${code}/report`, {
      method: 'POST',
      body,
      contentType: 'application/x-www-form-urlencoded',
      headers: { accept: 'text/html', ...headers },
    });

  beforeAll(async () => {
    code = await publishKidlisp(a, `(wipe orange)\n; reported ${Date.now()}`);
  });

  it('from the page’s Report link and form, listed by work reports with the count', async () => {
    const page = await client(a).get(`/${code}`, html);
    expect(page.text).toContain(`href="/${code}/report"`);
    const reportForm = await client(a).get(`/${code}/report`, html);
    expect(reportForm.status).toBe(200);
    expect(reportForm.text).toContain(`action="/${code}/report"`);
    expect(reportForm.text).not.toContain('<script');

    const sent = await form(a, 'reason=spam&details=Buy+cheap+things', {
      origin: a.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('Thank you');
    const second = await form(b, 'reason=abuse', { origin: b.url });
    expect(second.status).toBe(200);

    const reports = await work('reports');
    expect(reports.code).toBe(0);
    expect(reports.stdout).toContain(`2  ${code}  kidlisp`);
    expect(reports.stdout).toContain('spam 1');
    expect(reports.stdout).toContain('Buy cheap things');
  }, 30_000);

  it('refuses a cross-site post, a missing reason, and a client past its limit', async () => {
    const crossSite = await form(a, 'reason=spam', {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    // A post that says neither where it came from is no form of this site's pages either.
    const unsaid = await form(a, 'reason=spam', {});
    expect(unsaid.status).toBe(403);
    const noReason = await form(a, 'details=x', { origin: a.url });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('Choose a reason');
    // One report of this client (this instance counts in memory) was sent above: 4 more pass.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await form(a, 'reason=other', { origin: a.url }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(Number(answers[4]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers[4]?.text).toContain('Too many reports');
  });
});
