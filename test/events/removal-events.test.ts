import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventCollections } from '../../src/operations/events/collections.js';
import { addHook } from '../../src/operations/events/webhooks/hooks.js';
import { createAuthor, publish } from '../items/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, httpFetch } from '../support/http-client.js';
import { runCli } from '../support/processes.js';
import { openSse, type SseStream } from '../support/sse.js';
import { type Receiver, startReceiver, until } from './receiver.js';

// Take-downs as events (docs/contract.md, Events out): `work.removed` and `work.restored` reach
// the webhooks that want them, signed like every delivery; the works stream stays new works only.

let app: TestApp;
let http: HttpClient;
const receivers: Receiver[] = [];
const collections = () => eventCollections(app.db.db);

beforeAll(async () => {
  app = await startTestApp({
    EVENTS_POLL_INTERVAL_MS: '50',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_DELAYS: '0.05,0.05',
  });
  http = createHttpClient(app.url);
});
afterEach(async () => {
  await collections().hooks.deleteMany({});
});
afterAll(async () => {
  http?.close();
  await app?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiverWithHook(events?: string) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const hook = await addHook(collections(), {
    url: receiver.url,
    ...(events !== undefined ? { events } : {}),
  });
  return { receiver, hook };
}

/** The operator's command, as the built bin, over the app's database. */
const work = (...args: string[]) =>
  runCli(['work', ...args], {
    MONGODB_URI: app.mongo.uri,
    MONGODB_DB: app.services.config.mongodbDb,
    DATA_DIR: app.dataDir,
    PUBLIC_URL: app.services.config.publicUrl,
  });

async function deleteAsAuthor(code: string, token: string) {
  const response = await httpFetch(`${app.url}/api/items/${code}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
}

/** Nothing more arrives for a while (the deliverer looks every 50 ms here). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('work.removed', () => {
  it('reaches a hook that wants it, verified, when a member deletes their work; a published-only hook gets none', async () => {
    const removals = await receiverWithHook('work.removed');
    const published = await receiverWithHook('work.published');
    const author = await createAuthor(app, 'removalada');
    const code = await publish(
      http,
      '/api/store-kidlisp',
      { source: `(wipe blue) ; deleted by its author ${Date.now()}` },
      author.auth,
    );
    await until('the publish delivered', () => (published.receiver.received[0] ? true : undefined));
    await deleteAsAuthor(code, author.token);

    await until('the removal delivered', () => (removals.receiver.received[0] ? true : undefined));
    await settle();
    const [removal, ...more] = removals.receiver.verifyAll(removals.hook.secret);
    expect(more).toEqual([]);
    const [publishedEvent] = published.receiver.verifyAll(published.hook.secret);
    expect(removal).toEqual({
      type: 'work.removed',
      timestamp: expect.any(String),
      data: {
        kind: 'kidlisp',
        code,
        url: `${app.services.config.publicUrl}/${code}`,
        author: '@removalada',
        remixOf: null,
        when: publishedEvent?.data.when,
        removedAt: expect.any(String),
      },
    });
    const entry = await app.db.db.collection('removed-works').findOne({ code });
    expect(removal?.data.removedAt).toBe((entry?.when as Date).toISOString());
    expect(removals.receiver.received[0]?.body).not.toContain('deleted by its author');
    // The published-only hook got its work.published and nothing else.
    expect(published.receiver.received).toHaveLength(1);
  });

  it('reaches a hook when an operator removes a work, and each removal after a restore is its own event', async () => {
    const { receiver, hook } = await receiverWithHook('work.removed,work.restored');
    const code = await publish(http, '/api/store-clock', {
      source: `c d e ; removed twice ${Date.now()}`,
    });
    const address = `clock~${code}`;
    const reason = 'a reason only the operators read';

    const removed = await work('remove', address, '--reason', reason);
    expect(removed.stdout).toContain(`removed ${address}`);
    await until('the first removal', () => (receiver.received.length >= 1 ? true : undefined));
    expect((await work('restore', address)).stdout).toContain(`restored ${address}`);
    await until('the restore', () => (receiver.received.length >= 2 ? true : undefined));
    expect((await work('remove', address, '--reason', reason)).code).toBe(0);
    await until('the second removal', () => (receiver.received.length >= 3 ? true : undefined));
    await settle();

    const events = receiver.verifyAll(hook.secret);
    expect(events.map((event) => event.type)).toEqual([
      'work.removed',
      'work.restored',
      'work.removed',
    ]);
    expect(events.every((event) => event.data.code === code && event.data.kind === 'clock')).toBe(
      true,
    );
    const [first, restored, second] = events;
    // The restore names the removal it undid; the second removal has a time of its own.
    expect(restored?.data.removedAt).toBe(first?.data.removedAt);
    expect(Date.parse(second?.data.removedAt)).toBeGreaterThan(Date.parse(first?.data.removedAt));
    expect(receiver.ids().size).toBe(3);
    expect(receiver.received.some((one) => one.body.includes(reason))).toBe(false);
  });

  it('reaches a hook added without --events, which takes every type', async () => {
    const { receiver, hook } = await receiverWithHook();
    expect(hook.events).toEqual(['work.published', 'work.removed', 'work.restored']);
    const author = await createAuthor(app, 'removalbea');
    const code = await publish(
      http,
      '/api/store-kidlisp',
      { source: `(wipe red) ; every type ${Date.now()}` },
      author.auth,
    );
    await deleteAsAuthor(code, author.token);
    await until('both events', () => (receiver.received.length >= 2 ? true : undefined));
    expect(receiver.verifyAll(hook.secret).map((event) => [event.type, event.data.code])).toEqual([
      ['work.published', code],
      ['work.removed', code],
    ]);
  });
});

describe('the works stream', () => {
  const streamed = (stream: SseStream) =>
    stream.events.map((event) => ({ type: event.event, ...JSON.parse(event.data) }));

  it('carries new works only, live and when resuming after Last-Event-ID', async () => {
    const author = await createAuthor(app, 'removalcy');
    const stream = await openSse(`${app.url}/api/works/stream`);
    let first: string;
    let lastId: string;
    try {
      first = await publish(
        http,
        '/api/store-kidlisp',
        { source: `(wipe lime) ; streamed ${Date.now()}` },
        author.auth,
      );
      await until('the first work', () => (stream.events.length >= 1 ? true : undefined));
      lastId = stream.events[0]?.id as string;
      await deleteAsAuthor(first, author.token);
      const next = await publish(http, '/api/store-clock', { source: `e f g ; ${Date.now()}` });
      await until('the next work', () => (stream.events.length >= 2 ? true : undefined));
      await settle();
      expect(streamed(stream).map((event) => [event.type, event.code])).toEqual([
        ['work.published', first],
        ['work.published', next],
      ]);
    } finally {
      stream.close();
    }
    // The removal was recorded between the two works: a resume reads past it.
    expect(await collections().events.countDocuments({ type: 'work.removed' })).toBeGreaterThan(0);
    const resumed = await openSse(`${app.url}/api/works/stream`, {
      headers: { 'last-event-id': lastId },
    });
    try {
      await until('the replay', () => (resumed.events.length >= 1 ? true : undefined));
      await settle();
      expect(streamed(resumed).map((event) => event.type)).toEqual(['work.published']);
      expect(streamed(resumed)[0]?.code).not.toBe(first);
    } finally {
      resumed.close();
    }
  });
});
