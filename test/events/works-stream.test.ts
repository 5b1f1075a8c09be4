import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthor, publish } from '../items/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { graphqlResults, openSse, type SseStream, subscribeGraphql } from '../support/sse.js';

let app: TestApp;
let http: HttpClient;
let ada: Awaited<ReturnType<typeof createAuthor>>;

beforeAll(async () => {
  app = await startTestApp({ EVENTS_POLL_INTERVAL_MS: '50' });
  http = createHttpClient(app.url);
  ada = await createAuthor(app, 'streamada');
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const works = (stream: SseStream) =>
  stream.events
    .filter((event) => event.event === 'work.published')
    .map((event): Record<string, any> => ({ id: event.id, ...JSON.parse(event.data) }));

describe('GET /api/works/stream', () => {
  it('sends each new work of the kind asked, with the same data webhooks carry', async () => {
    const stream = await openSse(`${app.url}/api/works/stream?kind=kidlisp`);
    try {
      expect(stream.status).toBe(200);
      const clock = await publish(http, '/api/store-clock', { source: 'c e g ; stream' });
      const code = await publish(
        http,
        '/api/store-kidlisp',
        { source: '(wipe red) ; stream one' },
        ada.auth,
      );
      const [work] = await until('the work', () =>
        works(stream).length ? works(stream) : undefined,
      );
      expect(work).toMatchObject({
        kind: 'kidlisp',
        code,
        url: `${app.services.config.publicUrl}/${code}`,
        author: '@streamada',
        remixOf: null,
      });
      expect(Date.parse(work?.when)).not.toBeNaN();
      expect(work?.id).toBeTruthy();
      expect(works(stream).map((one) => one.code)).not.toContain(clock);
    } finally {
      stream.close();
    }
  });

  it('resumes after Last-Event-ID with every work missed, once and in order, then the live ones', async () => {
    const first = await openSse(`${app.url}/api/works/stream?author=@streamada`);
    const before = await publish(
      http,
      '/api/store-kidlisp',
      { source: '(wipe 1) ; resume' },
      ada.auth,
    );
    const seen = await until('the first work', () =>
      works(first).find((one) => one.code === before),
    );
    first.close();
    const missed: string[] = [];
    for (const n of [2, 3, 4])
      missed.push(
        await publish(http, '/api/store-kidlisp', { source: `(wipe ${n}) ; resume` }, ada.auth),
      );
    // Someone else's work is not this stream's.
    await publish(http, '/api/store-kidlisp', { source: '(wipe 5) ; resume, anonymous' });
    const again = await openSse(`${app.url}/api/works/stream?author=streamada`, {
      headers: { 'last-event-id': seen.id as string },
    });
    try {
      await until('the missed works', () => (works(again).length >= 3 ? true : undefined));
      const live = await publish(
        http,
        '/api/store-clock',
        { source: 'c d ; resume live' },
        ada.auth,
      );
      await until('the live work', () => works(again).find((one) => one.code === live));
      expect(works(again).map((one) => one.code)).toEqual([...missed, live]);
      // Each id is after the one before: a reconnect from any of them misses nothing.
      const ids = works(again).map((one) => one.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      again.close();
    }
  });

  it('answers a bad filter or cursor with the contract error before any stream', async () => {
    const kind = await http.get('/api/works/stream?kind=poem');
    expect(kind.status).toBe(400);
    expect(kind.json.code).toBe('INVALID_INPUT');
    const cursor = await http.get('/api/works/stream', { 'last-event-id': 'not-a-cursor' });
    expect(cursor.status).toBe(400);
    expect(cursor.json.code).toBe('CURSOR_INVALID');
  });
});

describe('subscription worksPublished', () => {
  it('delivers the works its filters select', async () => {
    const stream = await subscribeGraphql(
      app.url,
      'subscription ($author: String) { worksPublished(kind: CLOCK, author: $author) { kind code url author remixOf when cursor } }',
      { author: '@streamada' },
    );
    try {
      const parent = await publish(http, '/api/store-clock', { source: 'c ; sub parent' });
      await publish(http, '/api/store-kidlisp', { source: '(wipe 6) ; sub' }, ada.auth);
      const code = await publish(
        http,
        '/api/store-clock',
        { source: 'c d e ; sub', remixOf: `clock~${parent}` },
        ada.auth,
      );
      const [result] = await until('the subscription result', () => {
        const results = graphqlResults(stream);
        return results.length ? results : undefined;
      });
      expect(result?.errors).toBeUndefined();
      expect(result?.data?.worksPublished).toMatchObject({
        kind: 'CLOCK',
        code,
        author: '@streamada',
        remixOf: `clock~${parent}`,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(graphqlResults(stream)).toHaveLength(1);
    } finally {
      stream.close();
    }
  });
});
