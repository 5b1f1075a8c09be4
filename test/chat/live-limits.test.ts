import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/app-error.js';
import { createRequestContext } from '../../src/context.js';
import { subscribeChatMessages } from '../../src/operations/chat/live/index.js';
import { runOperation } from '../../src/operations/operation.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch } from '../support/http-client.js';
import { graphqlResults, openSse, type SseStream, subscribeGraphql } from '../support/sse.js';
import { waitForDeliveriesPatiently } from './live-support.js';

waitForDeliveriesPatiently();

const ADDED = 'subscription { chatMessageAdded { id text } }';

describe('live chat limits', () => {
  let perClient: TestApp;
  let full: TestApp;
  const open: SseStream[] = [];
  beforeAll(async () => {
    [perClient, full] = await Promise.all([
      startTestApp({ SUBSCRIBERS_PER_CLIENT: '2', SUBSCRIBERS_MAX: '100' }),
      startTestApp({ SUBSCRIBERS_PER_CLIENT: '100', SUBSCRIBERS_MAX: '2' }),
    ]);
  });
  afterAll(async () => {
    for (const opened of open) opened.close();
    await Promise.all([perClient?.close(), full?.close()]);
  });

  const stream = async (app: TestApp) => {
    const opened = await openSse(`${app.url}/api/chat-messages/stream`);
    open.push(opened);
    return opened;
  };

  it('answers a client over SUBSCRIBERS_PER_CLIENT with 429 TOO_MANY_STREAMS and Retry-After, on both faces', async () => {
    expect((await stream(perClient)).status).toBe(200);
    const graphql = await subscribeGraphql(perClient.url, ADDED);
    open.push(graphql);
    expect(graphql.status).toBe(200);

    const rest = await httpFetch(`${perClient.url}/api/chat-messages/stream`);
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(await rest.json()).toMatchObject({ code: 'TOO_MANY_STREAMS', limit: 2 });

    const refused = await subscribeGraphql(perClient.url, ADDED);
    open.push(refused);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    await refused.ended;
    expect(graphqlResults(refused)[0]?.errors?.[0]?.extensions?.code).toBe('TOO_MANY_STREAMS');

    // One closed, one more admitted.
    graphql.close();
    await expect.poll(() => perClient.services.chatHub.counts().subscribers).toBe(1);
    expect((await stream(perClient)).status).toBe(200);
  });

  it('answers over SUBSCRIBERS_MAX with 503 SUBSCRIBERS_FULL and Retry-After', async () => {
    await stream(full);
    await stream(full);
    const rest = await httpFetch(`${full.url}/api/chat-messages/stream`);
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(await rest.json()).toMatchObject({ code: 'SUBSCRIBERS_FULL' });
  });

  it('closes a subscriber that falls behind its buffer with SUBSCRIBER_BEHIND and a cursor it resumes after, losing nothing', async () => {
    const app = perClient;
    const ctx = await createRequestContext(app.services, {
      authorization: undefined,
      clientAddress: '192.0.2.7',
    });
    const feed = await runOperation(subscribeChatMessages, ctx, { instance: 'clock' });
    // The reader takes nothing while 300 messages arrive: more than its buffer of 256.
    const when = Date.now();
    const docs = Array.from({ length: 300 }, (_, i) => ({
      _id: new ObjectId(),
      text: `flood ${i}`,
      when: new Date(when + i),
    }));
    const subscribers = app.services.chatHub.counts().subscribers;
    await app.db.chat.clock.insertMany(docs);
    // Not a read until the hub has closed it: a change stream hands the messages over one by
    // one, and a reader taking them meanwhile would never fall behind.
    await expect.poll(() => app.services.chatHub.counts().subscribers).toBe(subscribers - 1);

    const received: string[] = [];
    let ending: unknown;
    try {
      for (;;) {
        const result = await feed.next();
        if (result.done) break;
        if (result.value.type === 'added') received.push(result.value.message.text);
      }
    } catch (error) {
      ending = error;
    }
    expect(ending).toBeInstanceOf(AppError);
    const behind = ending as AppError;
    expect(behind.code).toBe('SUBSCRIBER_BEHIND');
    // What was buffered (256, and one a waiting reader took at once) comes first, in order.
    expect(received.length).toBeGreaterThanOrEqual(256);
    expect(received).toEqual(docs.slice(0, received.length).map((doc) => doc.text));

    // Resuming after the cursor it was given reads the rest back from the collection.
    const resumed = await runOperation(subscribeChatMessages, ctx, {
      instance: 'clock',
      after: behind.details.resumeAfter,
    });
    const rest: string[] = [];
    while (rest.length < docs.length - received.length) {
      const result = await resumed.next();
      if (result.done) break;
      if (result.value.type === 'added') rest.push(result.value.message.text);
    }
    await resumed.return();
    expect(rest).toEqual(docs.slice(received.length).map((doc) => doc.text));
  });

  it('ends open streams and subscriptions when the service stops, without waiting for them', async () => {
    const app = await startTestApp();
    const rest = await openSse(`${app.url}/api/chat-messages/stream`);
    const graphql = await subscribeGraphql(app.url, ADDED);
    open.push(rest, graphql);
    await app.close();
    await Promise.all([rest.ended, graphql.ended]);
    expect(graphql.events.at(-1)?.event).toBe('complete');
  });
});
