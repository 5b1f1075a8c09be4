import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/http-client.js';
import { graphqlResults, openSse, type SseStream, subscribeGraphql } from '../support/sse.js';
import {
  CHANGE_STREAMS_MISSING,
  insertLive,
  streamMessages,
  testDatabaseHasChangeStreams,
  waitForDeliveriesPatiently,
} from './live-support.js';

waitForDeliveriesPatiently();

const changeStreams = await testDatabaseHasChangeStreams();

/**
 * The database goes away under connected live subscribers and comes back on the same port and
 * data directory: every message stored before it went and after it came back reaches them,
 * once and in order, without a reconnect.
 */

let port: number;
let dataDir: string;
let mongo: EmbeddedMongo | undefined;
let app: TestApp;
const open: SseStream[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  port = await freePort();
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-live-outage-'));
  mongo = await startEmbeddedMongo({ port, dataDir });
  app = await startTestApp({ MONGODB_URI: mongo.uri, CHAT_POLL_INTERVAL_MS: '200' });
});

afterAll(async () => {
  for (const opened of open) opened.close();
  await app?.close();
  await mongo?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Inserts once the database answers again (the driver needs a moment to find it). */
async function insertWhenBack(text: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertLive(app.db, 'system', text);
    } catch (error) {
      if (attempt > 40) throw error;
      await sleep(250);
    }
  }
}

describe('live chat while the database goes away and comes back', () => {
  it('loses no message for connected subscribers', async () => {
    const rest = await openSse(`${app.url}/api/chat-messages/stream?instance=system`);
    const graphql = await subscribeGraphql(
      app.url,
      'subscription { chatMessageAdded(instance: system) { id text } }',
    );
    open.push(rest, graphql);
    const texts = () => streamMessages(rest).map((message) => message.text);
    const graphqlTexts = () =>
      graphqlResults(graphql).map((result) => result.data?.chatMessageAdded?.text);

    const sent: string[] = [];
    for (let i = 0; i < 3; i++) sent.push((await insertLive(app.db, 'system', `before ${i}`)).text);
    await expect.poll(texts).toEqual(sent);
    // Stored, then the database stops before the service has certainly read them.
    for (let i = 0; i < 3; i++) sent.push((await insertLive(app.db, 'system', `last ${i}`)).text);
    await mongo?.close();
    mongo = undefined;
    await sleep(1_500);

    mongo = await startEmbeddedMongo({ port, dataDir });
    for (let i = 0; i < 3; i++) sent.push((await insertWhenBack(`after ${i}`)).text);

    await expect.poll(texts, { timeout: 15_000 }).toEqual(sent);
    await expect.poll(graphqlTexts, { timeout: 15_000 }).toEqual(sent);
    // Still connected: nothing ended the streams.
    expect(rest.events.filter((event) => event.event === 'close')).toEqual([]);
    expect(graphql.events.filter((event) => event.event === 'complete')).toEqual([]);
  }, 40_000);

  it.skipIf(!changeStreams)(
    `resumes its change stream after its resume token: a removal committed while it was broken still arrives (${changeStreams ? 'change streams' : CHANGE_STREAMS_MISSING})`,
    async () => {
      expect(app.services.chatHub.mode).toBe('change-stream');
      const rest = await openSse(`${app.url}/api/chat-messages/stream?instance=system`);
      open.push(rest);
      const doomed = await insertLive(app.db, 'system', 'removed during the outage');
      await expect.poll(() => streamMessages(rest).at(-1)?.text).toBe(doomed.text);
      await mongo?.close();
      mongo = undefined;
      await sleep(1_000);
      mongo = await startEmbeddedMongo({ port, dataDir });
      // At once, before the service has certainly reopened its stream.
      for (let attempt = 0; ; attempt++) {
        try {
          await app.db.chat.system.updateOne({ _id: doomed._id }, { $set: { deleted: true } });
          break;
        } catch (error) {
          if (attempt > 40) throw error;
          await sleep(250);
        }
      }
      const after = await insertWhenBack('after the removal');
      await expect
        .poll(() => streamMessages(rest).at(-1)?.text, { timeout: 15_000 })
        .toBe(after.text);
      expect(
        rest.events.filter((event) => event.event === 'removed').map((event) => event.data),
      ).toEqual([JSON.stringify({ id: doomed._id.toHexString(), instance: 'system' })]);
    },
    40_000,
  );
});
