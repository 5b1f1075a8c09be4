import { type Document, MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// How much of the data file the embedded engine's data takes: what a community's history costs
// in disk and, once read, in memory (the file is mapped).
let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  server = await startEmbeddedMongo({ dataDir: null });
  client = await new MongoClient(server.uri).connect();
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('page use', () => {
  it('keeps pages nearly full while collections written together each grow in key order', async () => {
    const db = client.db('pages');
    const chat = db.collection('chat');
    const hearts = db.collection('hearts');
    await chat.createIndex({ when: -1, _id: -1 }, { name: 'newest_first' });
    await hearts.createIndex({ for: 1 }, { name: 'by_message' });
    const start = Date.UTC(2026, 0, 1);
    for (let at = 0; at < 20_000; at += 1000) {
      const messages: Document[] = [];
      for (let i = at; i < at + 1000; i++)
        messages.push({
          _id: new ObjectId(),
          text: `message ${i} with a few words`,
          when: new Date(start + i),
        });
      await chat.insertMany(messages);
      await hearts.insertMany(messages.filter((_, i) => i % 10 === 0).map((m) => ({ for: m._id })));
    }
    const stats = await db.command({ collStats: 'chat' });
    // Each document also costs its key and LMDB's node header: about 1.3 times its BSON when
    // pages are full, over 2 times when every page is split in half.
    expect(stats.storageSize / stats.size).toBeLessThan(1.5);

    // Kept up as messages arrived, newest last, an index in newest-first order is as compact as
    // one built at once over the finished collection.
    await chat.createIndex({ when: 1, _id: 1 }, { name: 'oldest_first' });
    const { indexSizes } = await db.command({ collStats: 'chat' });
    expect(indexSizes.newest_first).toBeLessThan(1.1 * indexSizes.oldest_first);
  });
});
