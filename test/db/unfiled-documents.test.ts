import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Document, MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// New documents after a trigram index's mark are read from the collection, not written to the
// index (src/db/embedded/unfiled-documents.ts). Through the driver, against a data directory: a
// search finds them at once, in or out of `_id` order, rewritten or removed, and after a
// restart that came before any fold.
let dir: string;
let server: EmbeddedMongo | undefined;
let client: MongoClient | undefined;

async function start(): Promise<MongoClient> {
  server = await startEmbeddedMongo({ dataDir: dir });
  client = await new MongoClient(server.uri).connect();
  return client;
}

async function stop(): Promise<void> {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unfiled-documents-'));
});
afterAll(async () => {
  await stop();
  await rm(dir, { recursive: true, force: true });
});

/** What the search answers, and what a scan answers, newest first. */
async function searched(c: MongoClient, term: RegExp) {
  const messages = c.db('unfiled').collection('messages');
  const options: Document = { sort: { _id: -1 }, projection: { text: 1 } };
  return {
    found: await messages.find({ text: term }, options).toArray(),
    scanned: await messages.find({ text: term }, { ...options, hint: { $natural: 1 } }).toArray(),
  };
}

describe('new documents a trigram index reads from its collection', () => {
  it('are found at once, in or out of order, rewritten, removed and after a restart', async () => {
    let c = await start();
    const messages = c.db('unfiled').collection('messages');
    await messages.createIndex({ text: 'trigram' } as Document);
    await messages.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ _id: new ObjectId(), text: `old message ${i}` })),
    );
    const first = new ObjectId();
    const later = Array.from({ length: 6 }, () => new ObjectId());
    for (const [i, _id] of later.slice(0, 5).entries())
      await messages.insertOne({ _id, text: `fresh Zebra note ${i}` });
    let result = await searched(c, /zebra/i);
    expect(result.found).toHaveLength(5);
    // After the search: one after the newest, one after the mark but before the newest, and a
    // string `_id` (before every ObjectId's key, so before the mark).
    await messages.insertOne({ _id: later[5], text: 'fresh Zebra note 5' });
    result = await searched(c, /zebra/i);
    expect(result.found).toHaveLength(6);
    await messages.insertOne({ _id: first, text: 'an early zebra' });
    await messages.insertOne({ _id: 'zebra-by-hand' as unknown as ObjectId, text: 'a ZEBRA too' });
    result = await searched(c, /zebra/i);
    expect(result.found).toHaveLength(8);
    expect(result.found).toEqual(result.scanned);

    await messages.updateOne({ _id: later[1] }, { $set: { text: 'no stripes now' } });
    await messages.deleteOne({ _id: later[2] });
    await messages.updateOne({ _id: later[0] }, { $set: { text: 'striped: zebra, again' } });
    result = await searched(c, /zebra/i);
    expect(result.found.map((doc) => doc.text)).toEqual([
      'fresh Zebra note 5',
      'fresh Zebra note 4',
      'fresh Zebra note 3',
      'striped: zebra, again',
      'an early zebra',
      'a ZEBRA too',
    ]);
    expect(result.found).toEqual(result.scanned);

    await stop();
    c = await start();
    result = await searched(c, /zebra/i);
    expect(result.found).toHaveLength(6);
    expect(result.found).toEqual(result.scanned);
    expect(await searched(c, /stripes/)).toEqual({
      found: [{ _id: later[1], text: 'no stripes now' }],
      scanned: [{ _id: later[1], text: 'no stripes now' }],
    });
  });

  it('refuses a new document whose `_id` makes the index keys too long, as before', async () => {
    const c = client ?? (await start());
    const works = c.db('unfiled').collection('works');
    await works.createIndex({ text: 'trigram' } as Document);
    const long = 'w'.repeat(1_975) as unknown as ObjectId;
    await expect(works.insertOne({ _id: long, text: 'far too long a key' })).rejects.toMatchObject({
      code: 17280,
      message: 'index key too large to index for index text_trigram',
    });
    await works.insertOne({ _id: 'short' as unknown as ObjectId, text: 'a fine key' });
    expect(await works.find({ text: /fine/ }).toArray()).toHaveLength(1);
    expect(await works.countDocuments()).toBe(1);
  });
});
