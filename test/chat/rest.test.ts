import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import {
  type Channel,
  chronological,
  getJson,
  insertHandles,
  insertMessages,
  type MessageFixture,
  message,
  visible,
} from './fixtures.js';

const ALICE = 'auth0|alice';
const BOB = 'auth0|bob';
const GHOST = 'auth0|ghost'; // an account without a handle

const messages: MessageFixture[] = [
  message('system', 1, 'Hello World', { user: ALICE, hearts: 3 }),
  message('system', 2, 'hello world', { user: BOB }),
  message('system', 3, 'a.b', { user: ALICE, hearts: 1 }),
  message('system', 4, 'axb', { user: BOB }),
  message('system', 5, '(paren)', { user: GHOST, hearts: 2 }),
  message('system', 6, 'star*', { user: '' }),
  message('system', 7, 'back\\slash'),
  message('system', 8, 'hello, deleted', { user: ALICE, deleted: true, hearts: 5 }),
  ...Array.from({ length: 32 }, (_, i) =>
    message('system', 10 + i, `system filler ${i}`, { user: i % 2 ? ALICE : BOB, hearts: i % 4 }),
  ),
  // More than 50 visible system messages in all, so the default page size leaves some out.
  ...Array.from({ length: 30 }, (_, i) =>
    message('system', 50 + i, `more filler ${i}`, {
      user: i % 3 ? ALICE : GHOST,
      hearts: i % 2,
      ...(i % 10 === 4 ? { deleted: true } : {}),
    }),
  ),
  ...Array.from({ length: 12 }, (_, i) =>
    message('clock', 1.5 + i * 3, `clock hello ${i}`, {
      user: i % 3 ? BOB : GHOST,
      hearts: (i % 3) + 1,
    }),
  ),
];

let app: TestApp;
/** node:http (not fetch, which adds `Cache-Control: no-cache` to a conditional request). */
let client: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  client = createHttpClient(app.url);
  await insertMessages(app.db, messages);
  await insertHandles(app.db, { [ALICE]: 'alice', [BOB]: 'bob' });
});
afterAll(async () => {
  client?.close();
  await app?.close();
});

const chat = (query = '') => getJson(`${app.url}/api/chat-messages${query}`);

function expectContractError(
  response: { status: number; body: Record<string, any> },
  code: string,
) {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code });
  expect(typeof response.body.error).toBe('string');
  expect(response.body.message).toBe(response.body.error);
}

describe('GET /api/chat-messages pages', () => {
  it('answers the latest messages oldest first, with count, nextBefore, instance and no search', async () => {
    const { status, headers, body } = await chat('?limit=10');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=120');
    const expected = chronological(visible(messages)).slice(-10);
    expect(body.messages.map((m: any) => m.id)).toEqual(expected.map((m) => m._id.toHexString()));
    expect(body).toMatchObject({
      instance: 'system',
      count: 10,
      nextBefore: expected[0]?.when.toISOString(),
    });
    expect('search' in body).toBe(false);
    for (const m of body.messages) {
      expect(Object.keys(m).sort()).toEqual(['from', 'hearts', 'id', 'instance', 'text', 'when']);
      expect(m.instance).toBe('system');
    }
  });

  it('defaults to the latest 50 and reads the clock channel', async () => {
    expect(visible(messages).length).toBeGreaterThan(50);
    const system = await chat();
    expect(system.status).toBe(200);
    expect(system.body.count).toBe(50);
    expect(system.body.messages.map((m: any) => m.id)).toEqual(
      chronological(visible(messages))
        .slice(-50)
        .map((m) => m._id.toHexString()),
    );
    const clock = await chat('?instance=clock');
    expect(clock.body.instance).toBe('clock');
    expect(clock.body.messages.map((m: any) => m.id)).toEqual(
      chronological(visible(messages, ['clock'])).map((m) => m._id.toHexString()),
    );
    expect(clock.body.messages.every((m: any) => m.instance === 'clock')).toBe(true);
  });

  it('answers a search newest first, echoing the term, case-insensitively, never a deleted message', async () => {
    const { body } = await chat('?search=%20HELLO%20');
    expect(body.search).toBe('HELLO');
    expect(body.messages.map((m: any) => m.text)).toEqual(['hello world', 'Hello World']);
    expect(body.nextBefore).toBe(new Date(Date.parse('2026-03-01T12:00:01.000Z')).toISOString());
    const all = await chat('?instance=all&q=hello');
    expect(all.body.instance).toBe('all');
    const whens = all.body.messages.map((m: any) => Date.parse(m.when));
    expect(whens).toEqual([...whens].sort((a, b) => b - a));
    expect(all.body.count).toBe(2 + 12);
    expect(all.body.messages.some((m: any) => m.text.includes('deleted'))).toBe(false);
  });

  it('prefers search over q, and treats a blank search as none', async () => {
    expect((await chat('?search=axb&q=a.b')).body.messages.map((m: any) => m.text)).toEqual([
      'axb',
    ]);
    const blank = await chat('?search=%20%20&limit=5');
    expect('search' in blank.body).toBe(false);
    expect(blank.body.count).toBe(5);
  });

  it('returns only messages strictly older than before', async () => {
    const at = new Date(messages[4]!.when); // '(paren)' at second 5
    const { body } = await chat(`?before=${encodeURIComponent(at.toISOString())}`);
    expect(body.messages.map((m: any) => m.text)).toEqual([
      'Hello World',
      'hello world',
      'a.b',
      'axb',
    ]);
  });

  it.each([
    ['system'],
    ['clock'],
    ['all'],
  ] as const)('visits every %s message exactly once paging back with nextBefore', async (instance) => {
    const channels: Channel[] = instance === 'all' ? ['system', 'clock'] : [instance];
    const seen: string[] = [];
    let before = '';
    for (let guard = 0; guard < 50; guard++) {
      const { body } = await chat(
        `?instance=${instance}&limit=7${before && `&before=${encodeURIComponent(before)}`}`,
      );
      if (body.count === 0) {
        expect(body.nextBefore).toBeNull();
        break;
      }
      seen.unshift(...body.messages.map((m: any) => m.id));
      before = body.nextBefore;
    }
    expect(seen).toEqual(
      chronological(visible(messages, channels)).map((m) => m._id.toHexString()),
    );
  });
});

// Hearts, senders, the sender filter and literal search are the operation's rules:
// test/operations/chat/list-chat-messages.test.ts. Here, what the REST face adds.
describe('search over REST', () => {
  it('reads q as search and refuses 201 characters either way', async () => {
    const ok = await chat(`?q=${'z'.repeat(200)}`);
    expect(ok.status).toBe(200);
    expectContractError(await chat(`?search=${'z'.repeat(201)}`), 'SEARCH_TOO_LONG');
    expectContractError(await chat(`?q=${'z'.repeat(201)}`), 'SEARCH_TOO_LONG');
  });
});

describe('bad parameters are 400 with the contract shape', () => {
  it.each([
    ['limit=0', 'LIMIT_INVALID'],
    ['limit=-1', 'LIMIT_INVALID'],
    ['limit=abc', 'LIMIT_INVALID'],
    ['limit=1.5', 'LIMIT_INVALID'],
    ['limit=101', 'LIMIT_TOO_LARGE'],
    ['instance=sotce', 'INSTANCE_INVALID'],
    ['instance=System', 'INSTANCE_INVALID'],
    ['before=yesterday', 'BEFORE_INVALID'],
    ['before=2026-02-30T00:00:00Z', 'BEFORE_INVALID'],
    ['from=%40', 'FROM_INVALID'],
    ['from=a%20b', 'FROM_INVALID'],
    ['instance[]=all', 'INSTANCE_INVALID'],
    ['instance=system&instance=clock', 'INSTANCE_INVALID'],
    ['from[$ne]=x', 'FROM_INVALID'],
    ['limit[$gt]=0', 'LIMIT_INVALID'],
    ['before[$gt]=2020-01-01', 'BEFORE_INVALID'],
    ['search[$regex]=.*', 'INVALID_INPUT'],
  ])('%s -> %s', async (query, code) => {
    expectContractError(await chat(`?${query}`), code);
  });
});

describe('the route', () => {
  it('answers the alias /api/chat/messages the same', async () => {
    const alias = await getJson(`${app.url}/api/chat/messages?limit=3`);
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual((await chat('?limit=3')).body);
  });

  it('answers a repeat from the cache with the same status, headers and bytes', async () => {
    const answer = async (init?: RequestInit) => {
      const response = await fetch(`${app.url}/api/chat-messages?limit=4&instance=clock`, init);
      const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
      return { status: response.status, headers, body: await response.text() };
    };
    const first = await answer();
    const repeat = await answer();
    expect(repeat).toEqual(first);
    expect(first.headers).toMatchObject({
      'cache-control': 'public, max-age=120',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    expect(first.headers.etag).toMatch(/^(W\/)?".+"$/);
    const conditional = await client.get('/api/chat-messages?limit=4&instance=clock', {
      'if-none-match': first.headers.etag as string,
    });
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe('');
    expect((await answer({ headers: { authorization: 'Bearer not-a-real-token' } })).status).toBe(
      401,
    );
  });

  it('answers other methods with 405 and Allow', async () => {
    for (const path of ['/api/chat-messages', '/api/chat/messages']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, OPTIONS');
      expect(await response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    }
  });

  it('answers a preflight with 204', async () => {
    const response = await fetch(`${app.url}/api/chat-messages`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
