import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus } from '../../src/app-error.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, type RawResponse } from '../support/http-client.js';

/** Query operators smuggled in as JSON values or bracketed query parameters never reach the database. */

let app: TestApp;
let client: HttpClient;

beforeAll(async () => {
  app = await startTestApp();
  client = createHttpClient(app.url);
  await app.services.storage.put('2026/04/05/real.png', Buffer.from('png'), 'image/png');
  await app.db.handles.insertOne({ _id: 'acct-ada', handle: 'ada' });
  await app.db.chat.system.insertMany([
    {
      _id: new ObjectId(),
      user: 'acct-ada',
      text: 'from ada',
      when: new Date('2026-04-01T00:00:00Z'),
    },
    {
      _id: new ObjectId(),
      user: 'acct-bob',
      text: 'from bob',
      when: new Date('2026-04-01T00:00:01Z'),
    },
    {
      _id: new ObjectId(),
      text: 'secret deleted',
      when: new Date('2026-04-01T00:00:02Z'),
      deleted: true,
    },
  ]);
  // Something already published, so an operator that matched "anything" would have something to match.
  expect((await client.post('/api/store-kidlisp', { source: '(wipe existing)' })).status).toBe(201);
});

afterAll(async () => {
  client?.close();
  await app?.close();
});

async function counts() {
  const { db } = app;
  const entries = await Promise.all(
    (['kidlisp', 'clocks', 'pieces', 'paintings', 'tapes', 'codes'] as const).map(
      async (name) => [name, await db[name].countDocuments()] as const,
    ),
  );
  return Object.fromEntries(entries);
}

function expectContractError(response: RawResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json).toMatchObject({ code });
  expect(typeof response.json.error).toBe('string');
  expect(response.json.message).toBe(response.json.error);
  expect(errorStatus[code as keyof typeof errorStatus]).toBe(status);
}

describe('operator injection', () => {
  it.each([
    ['/api/store-kidlisp', { source: { $gt: '' } }, 'SOURCE_NOT_STRING'],
    ['/api/store-kidlisp', { source: { $ne: null } }, 'SOURCE_NOT_STRING'],
    ['/api/store-kidlisp', { source: ['(wipe existing)'] }, 'SOURCE_NOT_STRING'],
    ['/api/store-clock', { source: { $regex: '.' } }, 'SOURCE_NOT_STRING'],
    ['/api/store-clock', { melody: { $gt: '' } }, 'SOURCE_NOT_STRING'],
    ['/api/store-piece', { source: { $where: 'sleep(1000)' } }, 'SOURCE_NOT_STRING'],
    [
      '/api/store-piece',
      { source: 'export function paint() {}', name: { $ne: null } },
      'NAME_INVALID',
    ],
    ['/api/track-media', { slug: { $ne: null }, ext: 'png' }, 'SLUG_INVALID'],
    ['/api/track-media', { slug: { $regex: '.*' }, ext: 'png' }, 'SLUG_INVALID'],
    ['/api/track-media', { slug: '2026/04/05/real.png', ext: { $in: ['png'] } }, 'EXT_UNSUPPORTED'],
    [
      '/api/track-media',
      { slug: '2026/04/05/real.png', ext: 'png', metadata: { totalDuration: { $gt: 0 } } },
      'METADATA_INVALID',
    ],
  ])('POST %s %j is a 400 %s and writes nothing', async (path, body, code) => {
    const before = await counts();
    expectContractError(await client.post(path, body), 400, code);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['from[$ne]=x', 'FROM_INVALID'],
    ['from[$regex]=.*', 'FROM_INVALID'],
    ['from[]=ada', 'FROM_INVALID'],
    ['from=ada&from=bob', 'FROM_INVALID'],
    ['instance[]=a', 'INSTANCE_INVALID'],
    ['instance[$ne]=clock', 'INSTANCE_INVALID'],
    ['search[$regex]=.', 'INVALID_INPUT'],
    ['q[$regex]=.', 'INVALID_INPUT'],
    ['search[$where]=1', 'INVALID_INPUT'],
    ['limit[$gt]=0', 'LIMIT_INVALID'],
    ['before[$lt]=2030-01-01', 'BEFORE_INVALID'],
  ])('GET /api/chat-messages?%s is a 400 %s, with no messages', async (query, code) => {
    const response = await client.get(`/api/chat-messages?${query}`);
    expectContractError(response, 400, code);
    expect(response.json.messages).toBeUndefined();
  });

  it('treats operator-looking text as plain text', async () => {
    // `$ne` as a handle: no such handle, so nobody's messages (not everybody's).
    const handle = await client.get(`/api/chat-messages?from=${encodeURIComponent('$ne')}`);
    expect(handle.status).toBe(400); // not a handle shape at all
    const literal = await client.get(
      `/api/chat-messages?search=${encodeURIComponent('{"$ne":null}')}`,
    );
    expect(literal.status).toBe(200);
    expect(literal.json.count).toBe(0);
    // A source that looks like an operator document is published as the text it is.
    const published = await client.post('/api/store-kidlisp', { source: '{"$gt": ""}' });
    expect(published.status).toBe(201);
    expect((await app.db.kidlisp.findOne({ code: published.json.code }))?.source).toBe(
      '{"$gt": ""}',
    );
  });

  it('rejects operators in GraphQL variables and writes nothing', async () => {
    const before = await counts();
    const attempts: [string, Record<string, unknown>][] = [
      ['mutation ($s: String!) { publishKidlisp(source: $s) { code } }', { s: { $gt: '' } }],
      ['mutation ($s: String!) { publishClock(source: $s) { code } }', { s: { $ne: null } }],
      [
        'mutation ($s: String!, $n: String) { publishPiece(source: $s, name: $n) { code } }',
        { s: 'export default 1', n: { $ne: null } },
      ],
      [
        'mutation ($slug: String!) { trackMedia(slug: $slug, ext: png) { code } }',
        { slug: { $regex: '.' } },
      ],
      [
        'query ($f: String) { chatMessages(from: $f) { edges { node { text } } } }',
        { f: { $ne: 'x' } },
      ],
      [
        'query ($s: String) { chatMessages(search: $s) { edges { node { text } } } }',
        { s: { $regex: '.' } },
      ],
    ];
    for (const [query, variables] of attempts) {
      const response = await client.graphql(query, variables);
      expect(response.status, response.text).toBeLessThan(500);
      expect(response.json.data ?? null, response.text).toBeNull();
      expect(response.json.errors?.[0]?.message).toMatch(/cannot represent a non string value/);
    }
    expect(await counts()).toEqual(before);
  });

  it('never returns deleted messages or other accounts for a handle filter', async () => {
    const ada = await client.get('/api/chat-messages?from=@ada');
    expect(ada.status).toBe(200);
    expect(ada.json.messages.map((message: { text: string }) => message.text)).toEqual([
      'from ada',
    ]);

    const texts = (response: RawResponse) =>
      response.json.messages.map((message: { text: string }) => message.text);
    // A plain page: every visible message, and not the deleted one.
    for (const query of ['limit=100', 'instance=all&limit=100']) {
      const page = await client.get(`/api/chat-messages?${query}`);
      expect(page.status, query).toBe(200);
      expect(texts(page), query).toEqual(['from ada', 'from bob']);
      expect(page.json.count, query).toBe(2);
    }
    // A search: the deleted message's own words find nothing; a word it shares finds only the visible ones.
    for (const term of ['secret', 'deleted', 'secret deleted']) {
      const search = await client.get(`/api/chat-messages?search=${encodeURIComponent(term)}`);
      expect(search.status, term).toBe(200);
      expect(search.json.count, term).toBe(0);
      expect(search.json.messages, term).toEqual([]);
    }
    // 'd' is in 'secret deleted' and in 'from ada' (not in 'from bob').
    const shared = await client.get('/api/chat-messages?search=d&limit=100');
    expect(shared.status).toBe(200);
    expect(texts(shared)).toEqual(['from ada']);
    // The same through GraphQL.
    const connection = await client.graphql(
      '{ all: chatMessages(last: 100) { edges { node { text } } } secret: chatMessages(search: "secret") { edges { node { text } } } }',
    );
    expect(connection.status, connection.text).toBe(200);
    expect(connection.json.errors, connection.text).toBeUndefined();
    expect(
      connection.json.data.all.edges.map((edge: { node: { text: string } }) => edge.node.text),
    ).toEqual(['from ada', 'from bob']);
    expect(connection.json.data.secret.edges).toEqual([]);
  });
});
