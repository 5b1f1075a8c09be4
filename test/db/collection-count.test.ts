import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../src/db/embedded/index.js';

const DOCUMENTS = 600_000;
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function opened(dir: string) {
  const server = await startEmbeddedMongo({ dataDir: dir });
  const client = await new MongoClient(server.uri).connect();
  const close = async () => {
    await client.close();
    await server.close();
  };
  return { docs: client.db('counted').collection<{ _id: number | string }>('docs'), close };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

it('counts a large collection at once after a restart, and exactly through inserts, removes and refused writes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'collection-count-'));
  dirs.push(dir);
  const first = await opened(dir);
  for (let at = 0; at < DOCUMENTS; at += 10_000)
    await first.docs.insertMany(Array.from({ length: 10_000 }, (_, i) => ({ _id: at + i })));
  await first.close();

  const second = await opened(dir);
  const { docs } = second;
  // The first count after a restart reads LMDB's own entry count, where counting the keys walks
  // every page of the documents' table (about 10 ms here); after it the count is kept in memory.
  const fresh = await timed(() => docs.estimatedDocumentCount());
  const kept = await timed(() => docs.estimatedDocumentCount());
  expect(fresh.value).toBe(DOCUMENTS);
  expect(kept.value).toBe(DOCUMENTS);
  expect(await docs.countDocuments({})).toBe(DOCUMENTS);
  expect(fresh.ms - kept.ms).toBeLessThan(4);

  await docs.insertMany([{ _id: -1 }, { _id: -2 }]);
  await expect(docs.insertOne({ _id: 5 })).rejects.toThrow(/duplicate key/);
  await docs.deleteMany({ _id: { $lt: 100 } });
  await docs.deleteOne({ _id: 'absent' });
  const expected = DOCUMENTS - 100;
  expect(await docs.estimatedDocumentCount()).toBe(expected);
  expect(await docs.countDocuments({})).toBe(expected);
  await second.close();

  const third = await opened(dir);
  expect(await third.docs.estimatedDocumentCount()).toBe(expected);
  await third.docs.drop();
  expect(await third.docs.estimatedDocumentCount()).toBe(0);
  await third.docs.insertOne({ _id: 'again' });
  expect(await third.docs.estimatedDocumentCount()).toBe(1);
  await third.close();
}, 120_000);
