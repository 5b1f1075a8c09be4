import { type Collection, type Document, MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// Long enough that a scan alone takes far longer than the 50 ms after which scans take turns
// (src/db/embedded/slices.ts), whatever the machine does meanwhile.
const MESSAGES = 120_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let server: EmbeddedMongo;
let client: MongoClient;
let chat: Collection;

beforeAll(async () => {
  server = await startEmbeddedMongo({ dataDir: null });
  client = await new MongoClient(server.uri, { maxPoolSize: 20 }).connect();
  chat = client.db('app').collection('chat');
  await chat.createIndex({ when: -1, _id: -1 });
  for (let at = 0; at < MESSAGES; at += 10_000)
    await chat.insertMany(
      Array.from({ length: 10_000 }, (_, i) => ({
        n: at + i,
        text: `message ${at + i} with some words`,
        when: new Date(T0 + (at + i) * 1_000),
      })),
    );
}, 120_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** A search no index can serve and no message matches: it examines every message. */
const scan = (maxTimeMS?: number) =>
  chat
    .find(
      { text: { $regex: 'zq', $options: 'i' } },
      { sort: { when: -1, _id: -1 }, limit: 50, ...(maxTimeMS && { maxTimeMS }) },
    )
    .toArray();

const timed = async <T>(run: () => Promise<T>) => {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
};

describe('long scans', () => {
  it('let a page read and a point read answer while they run', async () => {
    const alone = await timed(() => scan());
    expect(alone.result).toEqual([]);
    let scanning = true;
    const running = Promise.all([scan(), scan()]).finally(() => {
      scanning = false;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reads: number[] = [];
    while (scanning && reads.length < 20) {
      const page = await timed(() =>
        chat
          .find({ when: { $lt: new Date(T0 + 30_000 * 1_000) } })
          .sort({ when: -1, _id: -1 })
          .limit(50)
          .toArray(),
      );
      expect(page.result.map((doc: Document) => doc.n)).toEqual(
        Array.from({ length: 50 }, (_, i) => 29_999 - i),
      );
      reads.push(page.ms);
      const point = await timed(() => chat.findOne({ when: new Date(T0 + 1234 * 1_000) }));
      expect(point.result?.n).toBe(1234);
      reads.push(point.ms);
    }
    await running;
    // Reads ran while both scans did; one after another they would each have waited for both.
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...reads)).toBeLessThan(alone.ms / 2);
  }, 60_000);

  it('in an aggregation (the chat search of both channels) let a point read answer meanwhile', async () => {
    const match = { $match: { text: { $regex: 'zq', $options: 'i' } } };
    const pipeline = [
      match,
      { $sort: { when: -1, _id: -1 } },
      { $limit: 50 },
      { $unionWith: { coll: 'chat', pipeline: [match, { $sort: { when: -1 } }, { $limit: 50 }] } },
      { $sort: { when: -1, _id: -1 } },
      { $limit: 50 },
    ];
    const alone = await timed(() => chat.aggregate(pipeline).toArray());
    expect(alone.result).toEqual([]);
    let scanning = true;
    const running = chat
      .aggregate(pipeline)
      .toArray()
      .finally(() => {
        scanning = false;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reads: number[] = [];
    while (scanning && reads.length < 10) {
      const point = await timed(() => chat.findOne({ when: new Date(T0 + 4321 * 1_000) }));
      expect(point.result?.n).toBe(4321);
      reads.push(point.ms);
    }
    expect(await running).toEqual([]);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...reads)).toBeLessThan(alone.ms / 2);
  }, 60_000);

  it('stop at their time limit, a waiting one included, with MaxTimeMSExpired', async () => {
    const alone = await timed(() => scan());
    const limit = Math.max(50, Math.round(alone.ms / 3));
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        timed(() =>
          scan(limit).then(
            () => 'answered',
            (error: MongoServerError) => error.codeName,
          ),
        ),
      ),
    );
    for (const { result, ms } of outcomes) {
      expect(result).toBe('MaxTimeMSExpired');
      // The limit counts the time spent waiting for the other scans too.
      expect(ms).toBeLessThan(limit + Math.max(250, alone.ms / 2));
    }
  }, 60_000);

  it('take turns: of four scans at once, the first answers in about the time of one', async () => {
    const alone = await timed(() => scan());
    const times = await Promise.all(Array.from({ length: 4 }, () => timed(() => scan())));
    const sorted = times.map(({ ms }) => ms).sort((a, b) => a - b);
    // Sharing the thread evenly, all four would end together, at about four times one.
    expect(sorted[0]).toBeLessThan(alone.ms * 2.5);
    expect(sorted[3]).toBeGreaterThan(alone.ms * 2.5);
  }, 60_000);
});
