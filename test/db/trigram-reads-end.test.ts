import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// A search through the trigram index reads posting lists with LMDB cursors; one left open when
// the search ends keeps its snapshot, and no page freed after it can be reused: the data file
// then grows with every write that follows.
let dir: string;
let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trigram-reads-end-'));
  server = await startEmbeddedMongo({ dataDir: dir });
  client = await new MongoClient(server.uri, { maxPoolSize: 20 }).connect();
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const fileMiB = () => statSync(join(dir, 'data.mdb')).size / 2 ** 20;

describe('searches through the trigram index', () => {
  it('leave no read open: writes after them reuse the pages they free', async () => {
    const c = client.db('app').collection('messages');
    await c.createIndex({ when: -1, _id: -1 });
    await c.createIndex({ text: 'trigram' } as Document);
    for (let at = 0; at < 20_000; at += 5_000)
      await c.insertMany(
        Array.from({ length: 5_000 }, (_, i) => ({
          text: `message ${at + i} with some words`,
          when: new Date(at + i),
        })),
      );
    // Terms whose rarest trigrams are spread over the whole collection: the search stops
    // reading the next rarest one's list before its end.
    for (let i = 0; i < 10; i++)
      expect(await c.find({ text: { $regex: `message ${i * 1999} with` } }).toArray()).toHaveLength(
        1,
      );
    const before = fileMiB();
    for (let round = 0; round < 100; round++)
      await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          c.updateOne({ text: `message ${round * 20 + n} with some words` }, { $set: { n } }),
        ),
      );
    expect(fileMiB()).toBeLessThan(before + 2);
  }, 120_000);
});
