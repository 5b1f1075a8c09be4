import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChatCursor } from '../../src/operations/chat/cursor.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch } from '../support/http-client.js';
import { graphqlResults, openSse, type SseStream, subscribeGraphql } from '../support/sse.js';
import {
  CHANGE_STREAMS_MISSING,
  insertLive,
  streamMessages,
  testDatabaseHasChangeStreams,
  waitForDeliveriesPatiently,
} from './live-support.js';

waitForDeliveriesPatiently();

const ADA = 'auth0|ada';
const BOB = 'auth0|bob';

const changeStreams = await testDatabaseHasChangeStreams();
/** Polling always; change streams too where the database has them. */
const sources = changeStreams ? (['auto', 'polling'] as const) : (['auto'] as const);

const ADDED = `subscription ($instance: ChatInstance, $from: String, $search: String, $after: String) {
  chatMessageAdded(instance: $instance, from: $from, search: $search, after: $after) { id from text when instance hearts }
}`;

describe.each(sources)('live chat (CHAT_LIVE_SOURCE=%s)', (source) => {
  let app: TestApp;
  const open: SseStream[] = [];
  const stream = async (query: string, headers: Record<string, string> = {}) => {
    const opened = await openSse(`${app.url}/api/chat-messages/stream${query}`, { headers });
    open.push(opened);
    return opened;
  };
  const subscription = async (variables: Record<string, unknown> = {}) => {
    const opened = await subscribeGraphql(app.url, ADDED, variables);
    open.push(opened);
    return opened;
  };
  const addedOf = (opened: SseStream) =>
    graphqlResults(opened).map((result) => result.data?.chatMessageAdded);

  beforeAll(async () => {
    app = await startTestApp({
      CHAT_LIVE_SOURCE: source,
      CHAT_POLL_INTERVAL_MS: '50',
      SUBSCRIBERS_PER_CLIENT: '100',
    });
    await app.db.handles.insertMany([
      { _id: ADA, handle: 'ada' },
      { _id: BOB, handle: 'bob' },
    ]);
    await insertLive(app.db, 'system', 'before anyone listened', ADA);
  });
  afterAll(async () => {
    for (const opened of open) opened.close();
    await app?.close();
  });

  it('follows the source the database allows, and says which', () => {
    expect(app.services.chatHub.mode).toBe(
      source === 'auto' && changeStreams ? 'change-stream' : 'polling',
    );
  });

  it('delivers a message inserted into chat-system to a REST stream and a GraphQL subscriber, exactly once and in order', async () => {
    const rest = await stream('?instance=system');
    expect(rest.status).toBe(200);
    expect(rest.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const graphql = await subscription({ instance: 'system' });
    expect(graphql.status).toBe(200);

    const sent = [];
    for (let i = 0; i < 10; i++)
      sent.push(await insertLive(app.db, 'system', `live ${i}`, i % 2 ? ADA : undefined));
    await insertLive(app.db, 'clock', 'another channel');
    const last = await insertLive(app.db, 'system', 'the last one', BOB);
    sent.push(last);

    await expect.poll(() => streamMessages(rest).at(-1)?.text).toBe('the last one');
    await expect.poll(() => addedOf(graphql).at(-1)?.text).toBe('the last one');

    const expected = sent.map((doc, i) => ({
      id: doc._id.toHexString(),
      from: i === 10 ? '@bob' : i % 2 ? '@ada' : 'anon',
      text: doc.text,
      when: doc.when.toISOString(),
      instance: 'system',
      hearts: 0,
    }));
    const restMessages = streamMessages(rest);
    expect(restMessages.map(({ eventId: _eventId, ...message }) => message)).toEqual(expected);
    // Each event id is the message's (when, _id) cursor, the one the GraphQL connection gives.
    expect(restMessages.map((message) => message.eventId)).toEqual(
      sent.map((doc) => encodeChatCursor({ when: doc.when, id: doc._id })),
    );
    expect(addedOf(graphql)).toEqual(expected);
  });

  it('holds the filters: channel, search and sender, on both faces', async () => {
    const clock = await stream('?instance=clock');
    const all = await stream('?instance=all');
    const needle = await stream('?instance=system&search=NeEdLe');
    const fromAda = await stream('?instance=system&from=@ada');
    const unknown = await stream('?instance=system&from=@nobody');
    const graphqlFromBob = await subscription({ instance: 'all', from: 'bob' });
    const graphqlSearch = await subscription({ instance: 'system', search: 'a.b' });

    const sent = [
      { channel: 'system', text: 'a needle here', user: ADA },
      { channel: 'clock', text: 'tick NEEDLE', user: BOB },
      { channel: 'system', text: 'a.b literally', user: BOB },
      { channel: 'system', text: 'axb is not a.b', user: undefined },
      { channel: 'system', text: 'axb', user: ADA },
      { channel: 'clock', text: 'tock', user: ADA },
    ] as const;
    for (const message of sent)
      await insertLive(app.db, message.channel, message.text, message.user);
    // The last of each channel matches every filter of its channel, so it closes every stream.
    await insertLive(app.db, 'system', 'end needle a.b', ADA);
    await insertLive(app.db, 'clock', 'end needle a.b', ADA);
    await insertLive(app.db, 'system', 'end bob', BOB);

    const texts = (opened: SseStream) => streamMessages(opened).map((message) => message.text);
    await expect.poll(() => texts(all).length).toBe(9);
    await expect.poll(() => texts(clock).at(-1)).toBe('end needle a.b');
    await expect.poll(() => texts(needle).at(-1)).toBe('end needle a.b');
    await expect.poll(() => texts(fromAda).at(-1)).toBe('end needle a.b');
    // Two channels: each keeps its order, not one against the other, so wait for the count.
    await expect.poll(() => addedOf(graphqlFromBob).length).toBe(3);
    await expect.poll(() => addedOf(graphqlSearch).at(-1)?.text).toBe('end needle a.b');

    expect(texts(clock)).toEqual(['tick NEEDLE', 'tock', 'end needle a.b']);
    expect(texts(needle)).toEqual(['a needle here', 'end needle a.b']);
    expect(texts(fromAda)).toEqual(['a needle here', 'axb', 'end needle a.b']);
    // Across channels (instance all) each channel keeps its own order.
    const ofChannel = (opened: SseStream, instance: string) =>
      addedOf(opened)
        .filter((message) => message?.instance === instance)
        .map((message) => message?.text);
    expect(ofChannel(graphqlFromBob, 'system')).toEqual(['a.b literally', 'end bob']);
    expect(ofChannel(graphqlFromBob, 'clock')).toEqual(['tick NEEDLE']);
    expect(addedOf(graphqlSearch).map((message) => message?.text)).toEqual([
      'a.b literally',
      'axb is not a.b',
      'end needle a.b',
    ]);
    expect(new Set(streamMessages(all).map((message) => message.instance))).toEqual(
      new Set(['system', 'clock']),
    );
    expect(texts(unknown)).toEqual([]);
  });

  it('replays the 30 messages a disconnected client missed, once and in order, after its Last-Event-ID, then goes on live', async () => {
    const first = await stream('?instance=system');
    await insertLive(app.db, 'system', 'seen before leaving');
    await expect.poll(() => streamMessages(first).length).toBe(1);
    const lastSeen = streamMessages(first)[0]?.eventId as string;
    first.close();
    await first.ended;

    const missed = [];
    for (let i = 0; i < 30; i++) missed.push(await insertLive(app.db, 'system', `missed ${i}`));
    const again = await stream('?instance=system', { 'last-event-id': lastSeen });
    expect(again.status).toBe(200);
    await insertLive(app.db, 'system', 'live after the replay');

    await expect.poll(() => streamMessages(again).at(-1)?.text).toBe('live after the replay');
    expect(streamMessages(again).map((message) => message.text)).toEqual([
      ...missed.map((doc) => doc.text),
      'live after the replay',
    ]);
  });

  it('delivers a message committed late with an older time, and a reconnect after it repeats nothing', async () => {
    const first = await stream('?instance=all');
    const newer = await insertLive(app.db, 'system', 'newer, stored first');
    await expect.poll(() => streamMessages(first).at(-1)?.text).toBe(newer.text);
    const late = {
      _id: new ObjectId(),
      text: 'older, stored late',
      when: new Date(newer.when.getTime() - 500),
    };
    await app.db.chat.clock.insertOne(late);
    await expect.poll(() => streamMessages(first).at(-1)?.text).toBe(late.text);
    // Its event id stays the highest cursor sent: the newer message's.
    const newerCursor = encodeChatCursor({ when: newer.when, id: newer._id });
    expect(streamMessages(first).map((message) => message.eventId)).toEqual([
      newerCursor,
      newerCursor,
    ]);
    first.close();
    await first.ended;

    const next = await insertLive(app.db, 'clock', 'while away');
    const again = await stream('?instance=all', { 'last-event-id': newerCursor });
    await insertLive(app.db, 'system', 'live again');
    await expect.poll(() => streamMessages(again).at(-1)?.text).toBe('live again');
    expect(streamMessages(again).map((message) => message.text)).toEqual([next.text, 'live again']);
  });

  it('resumes a GraphQL subscription after a cursor of the connection', async () => {
    const page = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ chatMessages(last: 1) { pageInfo { endCursor } } }' }),
    });
    const endCursor = ((await page.json()) as any).data.chatMessages.pageInfo.endCursor as string;
    const missed = [
      await insertLive(app.db, 'system', 'after the page 1'),
      await insertLive(app.db, 'system', 'after the page 2'),
    ];
    const graphql = await subscription({ after: endCursor });
    await insertLive(app.db, 'system', 'after the page, live');
    await expect.poll(() => addedOf(graphql).at(-1)?.text).toBe('after the page, live');
    expect(addedOf(graphql).map((message) => message?.text)).toEqual([
      ...missed.map((doc) => doc.text),
      'after the page, live',
    ]);
  });

  it("goes on after the channel's collection is dropped and written again", async () => {
    const rest = await stream('?instance=clock');
    await insertLive(app.db, 'clock', 'before the drop');
    await expect.poll(() => streamMessages(rest).at(-1)?.text).toBe('before the drop');
    await app.db.chat.clock.drop();
    await insertLive(app.db, 'clock', 'after the drop');
    await expect.poll(() => streamMessages(rest).at(-1)?.text).toBe('after the drop');
    expect(streamMessages(rest).map((message) => message.text)).toEqual([
      'before the drop',
      'after the drop',
    ]);
  });

  it('answers a cursor it did not issue with 400 CURSOR_INVALID', async () => {
    const response = await httpFetch(`${app.url}/api/chat-messages/stream`, {
      headers: { 'last-event-id': 'not-a-cursor' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'CURSOR_INVALID' });
  });

  it('shares one source per channel among every subscriber, and stops it when the last one leaves', async () => {
    for (const opened of open.splice(0)) opened.close();
    await expect.poll(() => app.services.chatHub.counts()).toEqual({ subscribers: 0, sources: 0 });
    const streams = await Promise.all(Array.from({ length: 5 }, () => stream('?instance=all')));
    await subscription({ instance: 'system' });
    expect(app.services.chatHub.counts()).toEqual({ subscribers: 6, sources: 2 });
    for (const opened of open.splice(0)) opened.close();
    await Promise.all(streams.map((opened) => opened.ended));
    await expect.poll(() => app.services.chatHub.counts()).toEqual({ subscribers: 0, sources: 0 });
  });

  it.skipIf(!changeStreams || source === 'polling')(
    `reports a message marked deleted as a removal on both faces (${changeStreams ? 'change streams' : CHANGE_STREAMS_MISSING})`,
    async () => {
      const rest = await stream('?instance=system');
      const removed = await subscribeGraphql(
        app.url,
        'subscription { chatMessageRemoved(instance: system) { id instance } }',
      );
      open.push(removed);
      const doomed = await insertLive(app.db, 'system', 'soon gone');
      await expect.poll(() => streamMessages(rest).at(-1)?.text).toBe('soon gone');
      await app.db.chat.system.updateOne({ _id: doomed._id }, { $set: { deleted: true } });
      const id = doomed._id.toHexString();
      await expect
        .poll(() => rest.events.filter((event) => event.event === 'removed').map((e) => e.data))
        .toEqual([JSON.stringify({ id, instance: 'system' })]);
      await expect
        .poll(() => graphqlResults(removed).map((result) => result.data?.chatMessageRemoved))
        .toEqual([{ id, instance: 'system' }]);
    },
  );
});
