import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Document, MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DumpProgress, exportDump, importDump } from '../../src/db/dump.js';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// Small documents, as chat messages are: enough of them that one reply of 16 MiB of documents
// also holds more than a MiB of array entries (js-bson writes at most 17 MiB at once).
const MESSAGES = 200_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const message = (i: number) => ({
  _id: new ObjectId(),
  user: `account-${i % 1_000}`,
  text: `hello paint message ${i} clock`,
  when: new Date(T0 + i * 1_000),
});

let source: EmbeddedMongo;
let client: MongoClient;
const dirs: string[] = [];

beforeAll(async () => {
  source = await startEmbeddedMongo({ dataDir: null });
  client = await new MongoClient(source.uri).connect();
  const chat = client.db('aesthetic').collection('chat-system');
  await chat.createIndex({ when: -1, _id: -1 }, { name: 'chat_when_id' });
  for (let at = 0; at < MESSAGES; at += 10_000)
    await chat.insertMany(Array.from({ length: 10_000 }, (_, i) => message(at + i)));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await source?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a collection of 200,000 small documents', () => {
  it('is read whole by a cursor without a batch size (each reply fits in 16 MiB)', async () => {
    let count = 0;
    let last = '';
    for await (const doc of client.db('aesthetic').collection('chat-system').find()) {
      count++;
      expect(doc._id.toHexString() > last).toBe(true);
      last = doc._id.toHexString();
    }
    expect(count).toBe(MESSAGES);
  }, 120_000);

  it('exports and imports whole, its indexes built when the import ends', async () => {
    const out = await mkdtemp(join(tmpdir(), 'dump-at-size-'));
    dirs.push(out);
    const reported: DumpProgress[] = [];
    expect(await exportDump(client, out, (progress) => reported.push(progress))).toEqual({
      collections: 1,
      documents: MESSAGES,
    });
    const target = await startEmbeddedMongo({ dataDir: null });
    const copy = await new MongoClient(target.uri).connect();
    try {
      expect(await importDump(copy, out)).toEqual({
        collections: 1,
        documents: MESSAGES,
        skipped: 0,
      });
      const status = await copy.db('admin').command({ serverStatus: 1 });
      expect(status.indexBuilds.inProgress).toEqual([]);
      const chat = copy.db('aesthetic').collection('chat-system');
      expect(await chat.countDocuments()).toBe(MESSAGES);
      const newest = await chat.find().sort({ when: -1, _id: -1 }).limit(3).toArray();
      expect(newest.map((doc: Document) => doc.text)).toEqual(
        [1, 2, 3].map((k) => `hello paint message ${MESSAGES - k} clock`),
      );
      const plan = await chat.find().sort({ when: -1, _id: -1 }).limit(3).explain();
      expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('chat_when_id');
      const original = await client
        .db('aesthetic')
        .collection('chat-system')
        .findOne({ text: 'hello paint message 123456 clock' });
      expect(await chat.findOne({ _id: original?._id })).toEqual(original);
    } finally {
      await copy.close();
      await target.close();
    }
    // Progress is reported every few seconds, so a fast run may report none: each says where.
    for (const progress of reported) expect(progress.ns).toBe('aesthetic.chat-system');
  }, 180_000);
});
