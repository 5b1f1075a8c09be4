import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, type RawResponse } from '../support/http-client.js';

/** 200 requests of every kind at once: publishes, chat reads, GraphQL, docs. None may fail on our side. */

let app: TestApp;
let client: HttpClient;
const nonce = Date.now().toString(36);

beforeAll(async () => {
  app = await startTestApp();
  client = createHttpClient(app.url, { maxSockets: 256, timeoutMs: 20_000 });
  const storage = app.services.storage;
  const exts = ['png', 'zip', 'mp4', 'lua', 'lisp', 'mjs'];
  for (let i = 0; i < 12; i++) {
    const ext = exts[i % exts.length];
    await storage.put(
      `2026/06/07/many-${i}.${ext}`,
      Buffer.from(`file ${i}`),
      'application/octet-stream',
    );
  }
  await storage.put('2026/06/07/same.png', Buffer.from('same'), 'image/png');
  await storage.put('2026/06/07/gql-a.png', Buffer.from('a'), 'image/png');
  await storage.put('2026/06/07/gql-b.png', Buffer.from('b'), 'image/png');
  const when = Date.UTC(2026, 5, 1);
  await app.db.chat.system.insertMany(
    Array.from({ length: 300 }, (_, i) => ({
      _id: new ObjectId(),
      text: `hello world ${i} (a+)+$`,
      when: new Date(when + i * 1000),
      user: i % 3 ? 'acct-ada' : 'acct-bob',
    })),
  );
  await app.db.chat.clock.insertMany(
    Array.from({ length: 100 }, (_, i) => ({
      _id: new ObjectId(),
      text: `tick ${i}`,
      when: new Date(when + i * 2000),
    })),
  );
  await app.db.handles.insertMany([
    { _id: 'acct-ada', handle: 'ada' },
    { _id: 'acct-bob', handle: 'bob' },
  ]);
});

afterAll(async () => {
  client?.close();
  await app?.close();
});

interface Call {
  label: string;
  run: () => Promise<RawResponse>;
  /** The status a user expects. */
  status: number | number[];
  /** For GraphQL: the answer carries data and no errors. */
  graphqlOk?: boolean;
  group?: string;
}

const piece = (n: number | string) =>
  `export function paint({ wipe }) { wipe(${JSON.stringify(String(n))}); } // ${nonce}`;

function calls(): Call[] {
  const list: Call[] = [];
  const add = (count: number, make: (i: number) => Call) => {
    for (let i = 0; i < count; i++) list.push(make(i));
  };
  // Publishes: new content, identical content racing itself, legacy field names, names that collide.
  add(12, (i) => ({
    label: `kidlisp new ${i}`,
    run: () => client.post('/api/store-kidlisp', { source: `(wipe red) ; ${nonce} ${i}` }),
    status: 201,
  }));
  add(8, () => ({
    label: 'kidlisp same',
    group: 'kidlisp',
    run: () => client.post('/api/store-kidlisp', { source: `(ink blue) ; ${nonce} same` }),
    status: [200, 201],
  }));
  add(10, (i) => ({
    label: `clock new ${i}`,
    run: () => client.post('/api/store-clock', { source: `c d e ${nonce} ${i}` }),
    status: 201,
  }));
  add(6, () => ({
    label: 'clock same (melody)',
    group: 'clock',
    run: () => client.post('/api/store-clock', { melody: `g f e ${nonce}` }),
    status: [200, 201],
  }));
  add(10, (i) => ({
    label: `piece new ${i}`,
    run: () => client.post('/api/store-piece', { source: piece(i) }),
    status: 201,
  }));
  add(6, (i) => ({
    label: `piece named ${i}`,
    group: 'named',
    run: () =>
      client.post('/api/store-piece', { source: piece(`named ${i}`), name: `Race Car ${nonce}` }),
    status: 201,
  }));
  add(6, () => ({
    label: 'piece same',
    group: 'piece',
    run: () => client.post('/api/store-piece', { source: piece('same') }),
    status: [200, 201],
  }));
  add(12, (i) => {
    const ext = ['png', 'zip', 'mp4', 'lua', 'lisp', 'mjs'][i % 6] as string;
    return {
      label: `media ${i}`,
      run: () => client.post('/api/track-media', { slug: `2026/06/07/many-${i}.${ext}`, ext }),
      status: 200,
    };
  });
  add(8, () => ({
    label: 'media same',
    group: 'media',
    run: () => client.post('/api/track-media', { slug: '2026/06/07/same.png', ext: 'png' }),
    status: 200,
  }));

  // Chat reads with many parameter combinations (some shared, so concurrent misses share one read).
  const chatQueries = [
    '',
    'instance=clock',
    'instance=all',
    'limit=1',
    'limit=100',
    'limit=7&instance=all',
    'before=2026-06-01T00:02:00Z',
    'before=2026-06-01T00:02:00.000%2B00:00&limit=5',
    'search=world',
    'q=WORLD&instance=all',
    'search=(a%2B)%2B%24',
    'search=%E2%9C%A8',
    'from=ada',
    'from=%40bob&limit=3',
    'from=nobody',
    'from=ada&search=1&instance=all',
    'search=tick&instance=clock&before=2026-06-01T00:01:00Z',
    'q=&search=',
    'limit=&before=',
    'instance=system&limit=50&search=hello',
  ];
  add(40, (i) => {
    const query = chatQueries[i % chatQueries.length];
    const path = i % 4 === 3 ? '/api/chat/messages' : '/api/chat-messages';
    return { label: `chat ${query}`, run: () => client.get(`${path}?${query}`), status: 200 };
  });

  // GraphQL queries and mutations.
  const gqlQueries: [string, Record<string, unknown>][] = [
    ['{ version }', {}],
    [
      'query ($f: Int) { chatMessages(first: $f) { edges { cursor node { id from text when instance hearts } } pageInfo { hasNextPage endCursor } } }',
      { f: 10 },
    ],
    [
      'query ($l: Int) { chatMessages(last: $l, instance: all) { edges { node { id from } } } }',
      { l: 25 },
    ],
    [
      'query ($s: String) { chatMessages(search: $s, instance: all) { edges { node { text } } } }',
      { s: 'World' },
    ],
    [
      'query ($from: String) { chatMessages(from: $from) { edges { node { from } } } }',
      { from: '@ada' },
    ],
    [
      'query ($src: String!) { previewKidlisp(source: $src) { valid errors warnings stats { expressions functionsUsed } } }',
      { src: '(wipe blue)\n(ink red)\n(box 10 10 20 20)' },
    ],
    ['query ($src: String!) { previewKidlisp(source: $src) { valid errors } }', { src: '(wipe (' }],
    ['query { topKidlisp(limit: 3) { code hits url } }', {}],
  ];
  add(32, (i) => {
    const [query, variables] = gqlQueries[i % gqlQueries.length] as [
      string,
      Record<string, unknown>,
    ];
    return {
      label: `graphql ${query.slice(0, 40)}`,
      run: () => client.graphql(query, variables),
      status: 200,
      graphqlOk: true,
    };
  });
  const mutations: ((i: number) => [string, Record<string, unknown>])[] = [
    (i) => [
      'mutation ($s: String!) { publishKidlisp(source: $s) { code url cached } }',
      { s: `(wipe lime) ; gql ${nonce} ${i}` },
    ],
    (i) => [
      'mutation ($s: String!) { publishClock(source: $s) { code url cached } }',
      { s: `a b c ${nonce} ${i}` },
    ],
    (i) => [
      'mutation ($s: String!, $n: String) { publishPiece(source: $s, name: $n) { code url cached } }',
      { s: piece(`gql ${i}`), n: i % 2 ? `gql piece ${i}` : null },
    ],
    (i) => [
      'mutation ($slug: String!) { trackMedia(slug: $slug, ext: png) { code slug url cached } }',
      { slug: i % 2 ? '2026/06/07/gql-a.png' : '2026/06/07/gql-b.png' },
    ],
  ];
  add(20, (i) => {
    const [query, variables] = (
      mutations[i % mutations.length] as (i: number) => [string, Record<string, unknown>]
    )(i);
    return {
      label: `graphql mutation ${i % 4}`,
      run: () => client.graphql(query, variables),
      status: 200,
      graphqlOk: true,
    };
  });

  // Documentation.
  const docs: [string, Record<string, string>][] = [
    ['/api', {}],
    ['/api/docs', {}],
    ['/api/api-docs', {}],
    ['/api?format=html', {}],
    ['/api', { accept: 'text/html' }],
    ['/api/openapi.json', {}],
    ['/api-docs.json', { accept: 'text/html' }],
  ];
  add(30, (i) => {
    const [path, headers] = docs[i % docs.length] as [string, Record<string, string>];
    return { label: `docs ${path}`, run: () => client.get(path, headers), status: 200 };
  });
  return list;
}

describe('200 concurrent mixed requests', () => {
  it('answer without a single 5xx, each as a user expects', async () => {
    const list = calls();
    expect(list.length).toBe(200);
    const answers = await Promise.all(
      list.map(async (call) => ({ call, response: await call.run() })),
    );

    const serverErrors = answers
      .filter(({ response }) => response.status >= 500)
      .map(
        ({ call, response }) => `${call.label}: ${response.status} ${response.text.slice(0, 200)}`,
      );
    expect(serverErrors).toEqual([]);
    const unexpected = answers
      .filter(({ call, response }) => {
        const statuses = Array.isArray(call.status) ? call.status : [call.status];
        if (!statuses.includes(response.status)) return true;
        return (
          call.graphqlOk && (response.json?.errors !== undefined || response.json?.data == null)
        );
      })
      .map(
        ({ call, response }) => `${call.label}: ${response.status} ${response.text.slice(0, 200)}`,
      );
    expect(unexpected).toEqual([]);

    // Racing identical publishes agree on one code, and exactly one of them created it.
    for (const group of ['kidlisp', 'clock', 'piece', 'media']) {
      const bodies = answers
        .filter(({ call }) => call.group === group)
        .map(({ response }) => response.json);
      expect(new Set(bodies.map((body) => body.code)).size, group).toBe(1);
      expect(bodies.filter((body) => body.cached === false).length, group).toBe(1);
    }
    // Same name, different content: distinct codes.
    const named = answers
      .filter(({ call }) => call.group === 'named')
      .map(({ response }) => response.json.code as string);
    expect(new Set(named).size).toBe(named.length);
    expect(named).toContain(`race-car-${nonce}`);
  });
});
