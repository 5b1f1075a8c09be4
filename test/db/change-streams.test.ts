import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChangeStream,
  type ChangeStreamDocument,
  type Collection,
  type Db,
  type Document,
  MongoClient,
  MongoServerError,
  type ResumeToken,
  Timestamp,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_LOG_SIZE } from '../../src/db/embedded/change-log.js';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';
import { Store } from '../../src/db/embedded/store.js';
import { uniqueDbName } from '../support/mongo.js';

// collection.watch() through the official driver against the embedded server, which is what
// feeds the live chat: change streams are the embedded engine's own (a standalone mongod has none).
let mongo: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ dataDir: null });
  client = await new MongoClient(mongo.uri).connect();
  db = client.db(uniqueDbName('change_streams'));
});

afterAll(async () => {
  await client?.close();
  await mongo?.close();
});

const streams: ChangeStream[] = [];
function watch<T extends Document = Document>(
  coll: Collection<T>,
  pipeline: Document[] = [],
  options: Parameters<Collection<T>['watch']>[1] = {},
): ChangeStream<T, ChangeStreamDocument<T>> {
  const stream = coll.watch<T, ChangeStreamDocument<T>>(pipeline, {
    maxAwaitTimeMS: 50,
    ...options,
  });
  streams.push(stream as unknown as ChangeStream);
  return stream;
}

/** Opens the stream on the server (the first round trip): changes after this are seen. */
async function opened<T extends Document>(stream: ChangeStream<T, ChangeStreamDocument<T>>) {
  expect(await stream.tryNext()).toBeNull();
  return stream;
}

/** The next `n` events of the stream, waiting for them as long as they take. */
async function take<T extends Document>(
  stream: ChangeStream<T, ChangeStreamDocument<T>>,
  n: number,
): Promise<ChangeStreamDocument<T>[]> {
  const events: ChangeStreamDocument<T>[] = [];
  while (events.length < n) events.push(await stream.next());
  return events;
}

afterAll(async () => {
  for (const stream of streams) await stream.close().catch(() => undefined);
});

describe('collection.watch()', () => {
  it('reports insert, update, replace and delete in commit order, shaped as mongod does', async () => {
    const coll = db.collection('crud');
    const stream = await opened(watch(coll));
    await coll.insertOne({ _id: 1 as any, name: 'a', n: 1, tags: ['x'], at: { x: 1, y: 2 } });
    await coll.updateOne(
      { _id: 1 as any },
      { $set: { n: 2, 'meta.by': 'me', 'at.x': 3 }, $unset: { tags: '', 'at.y': '' } },
    );
    await coll.replaceOne({ _id: 1 as any }, { name: 'b' });
    await coll.deleteOne({ _id: 1 as any });

    const [insert, update, replace, remove] = await take(stream, 4);
    expect(insert).toMatchObject({
      operationType: 'insert',
      ns: { db: db.databaseName, coll: 'crud' },
      documentKey: { _id: 1 },
      fullDocument: { _id: 1, name: 'a', n: 1, tags: ['x'], at: { x: 1, y: 2 } },
    });
    expect(update).toMatchObject({
      operationType: 'update',
      documentKey: { _id: 1 },
      updateDescription: { updatedFields: { n: 2, 'at.x': 3, meta: { by: 'me' } } },
    });
    // In no particular order, as on mongod.
    const removedFields = (update as { updateDescription: { removedFields: string[] } })
      .updateDescription.removedFields;
    expect([...removedFields].sort()).toEqual(['at.y', 'tags']);
    expect(update).not.toHaveProperty('fullDocument');
    expect(replace).toMatchObject({
      operationType: 'replace',
      fullDocument: { _id: 1, name: 'b' },
    });
    expect(remove).toMatchObject({ operationType: 'delete', documentKey: { _id: 1 } });
    expect(remove).not.toHaveProperty('fullDocument');

    const events = [insert, update, replace, remove] as ChangeStreamDocument[];
    for (const event of events) {
      expect(typeof (event._id as { _data: unknown })._data).toBe('string');
      expect((event as { clusterTime?: unknown }).clusterTime).toBeInstanceOf(Timestamp);
    }
    // Tokens and cluster times grow in commit order.
    const tokens = events.map((event) => (event._id as { _data: string })._data);
    expect([...tokens].sort()).toEqual(tokens);
    expect(new Set(tokens).size).toBe(4);
  });

  it('reports no change for an update that changes nothing, or a write that failed', async () => {
    const coll = db.collection('quiet');
    const stream = await opened(watch(coll));
    await coll.insertOne({ _id: 1 as any, n: 1 });
    await coll.updateOne({ _id: 1 as any }, { $set: { n: 1 } });
    await expect(coll.insertOne({ _id: 1 as any, n: 9 })).rejects.toMatchObject({ code: 11000 });
    await coll.insertOne({ _id: 2 as any, n: 2 });
    const events = await take(stream, 2);
    expect(events.map((event) => [event.operationType, (event as any).documentKey._id])).toEqual([
      ['insert', 1],
      ['insert', 2],
    ]);
  });

  it("looks the document up with fullDocument: 'updateLookup'", async () => {
    const coll = db.collection('lookup');
    const stream = await opened(watch(coll, [], { fullDocument: 'updateLookup' }));
    await coll.insertOne({ _id: 'm' as any, text: 'hi', deleted: false });
    await coll.updateOne({ _id: 'm' as any }, { $set: { deleted: true } });
    const [, update] = await take(stream, 2);
    expect(update).toMatchObject({
      operationType: 'update',
      updateDescription: { updatedFields: { deleted: true } },
      fullDocument: { _id: 'm', text: 'hi', deleted: true },
    });
  });

  it('shows only its own collection, and only what its $match keeps', async () => {
    const watched = db.collection('watched');
    const other = db.collection('other');
    const deletes = await opened(watch(watched, [{ $match: { operationType: 'delete' } }]));
    const all = await opened(watch(watched));
    await other.insertOne({ _id: 'elsewhere' as any });
    await watched.insertOne({ _id: 'kept' as any });
    await watched.deleteOne({ _id: 'kept' as any });
    const [event] = await take(deletes, 1);
    expect(event).toMatchObject({ operationType: 'delete', documentKey: { _id: 'kept' } });
    const both = await take(all, 2);
    expect(both.map((e) => e.operationType)).toEqual(['insert', 'delete']);
    expect(both.map((e) => (e as any).documentKey._id)).toEqual(['kept', 'kept']);
  });

  it('resumes right after a resume token (resumeAfter and startAfter)', async () => {
    const coll = db.collection('resume');
    const first = await opened(watch(coll));
    for (let i = 0; i < 5; i++) await coll.insertOne({ _id: i as any });
    const events = await take(first, 2);
    const token = events[1]?._id as ResumeToken;
    await first.close();

    const resumed = watch(coll, [], { resumeAfter: token });
    expect((await take(resumed, 3)).map((e) => (e as any).documentKey._id)).toEqual([2, 3, 4]);
    const started = watch(coll, [], { startAfter: token });
    expect((await take(started, 3)).map((e) => (e as any).documentKey._id)).toEqual([2, 3, 4]);
  });

  it('gives a resume token with an empty batch, which resumes after what was already committed', async () => {
    const coll = db.collection('idle');
    await coll.insertOne({ _id: 'old' as any });
    const idle = await opened(watch(coll));
    const token = idle.resumeToken;
    expect(token).toBeDefined();
    await idle.close();
    await coll.insertOne({ _id: 'new' as any });
    const resumed = watch(coll, [], { resumeAfter: token });
    const [event] = await take(resumed, 1);
    expect(event).toMatchObject({ operationType: 'insert', documentKey: { _id: 'new' } });
  });

  it('answers 286 ChangeStreamHistoryLost for a token older than the log, or one it never issued', async () => {
    const coll = db.collection('lost');
    const stream = await opened(watch(coll));
    await coll.insertOne({ _id: 'first' as any });
    const [event] = await take(stream, 1);
    await stream.close();
    const docs = Array.from({ length: CHANGE_LOG_SIZE + 10 }, (_, i) => ({ _id: i }));
    await coll.insertMany(docs as any[]);

    const lost = watch(coll, [], { resumeAfter: event?._id as ResumeToken });
    const error = await lost.tryNext().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' });

    const future = watch(coll, [], { resumeAfter: { _data: '7FFFFFFFFFFFFFFF' } });
    await expect(future.tryNext()).rejects.toMatchObject({ code: 286 });
  });

  it('ends with drop and invalidate when its collection is dropped, as on mongod', async () => {
    const coll = db.collection('dropped');
    await coll.insertOne({ _id: 1 as any });
    const stream = await opened(watch(coll, [{ $match: { operationType: { $ne: 'insert' } } }]));
    const other = await opened(watch(db.collection('kept')));
    await coll.insertOne({ _id: 2 as any });
    await coll.deleteOne({ _id: 1 as any });
    await coll.drop();
    await db.collection('kept').insertOne({ _id: 3 as any });
    const events = await take(stream, 3);
    expect(events.map((e) => e.operationType)).toEqual(['delete', 'drop', 'invalidate']);
    expect(events[1]).toMatchObject({ ns: { db: db.databaseName, coll: 'dropped' } });
    expect(events[1]).not.toHaveProperty('documentKey');
    expect(await stream.tryNext()).toBeNull();
    expect(stream.closed).toBe(true);
    // Another collection's stream goes on.
    expect((await take(other, 1))[0]).toMatchObject({
      operationType: 'insert',
      documentKey: { _id: 3 },
    });
  });

  it('lets the driver close the stream (killCursors)', async () => {
    const stream = await opened(watch(db.collection('closing')));
    await stream.close();
    expect(stream.closed).toBe(true);
  });
});

describe('the change log', () => {
  it('numbers changes without gaps: a rolled-back command leaves no change and its number is given again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'embedded-change-log-'));
    const store = new Store(dir);
    try {
      // As a group commit does: commands in child transactions of one commit.
      store.write(() => {
        const coll = store.ensureCollection('d', 'c');
        coll.insert({ _id: 'a' });
        expect(() =>
          store.write(() => {
            coll.insert({ _id: 'b' });
            throw new Error('this command fails');
          }),
        ).toThrow('this command fails');
        coll.insert({ _id: 'c' });
      });
      expect(() =>
        store.write(() => {
          store.ensureCollection('d', 'c').insert({ _id: 'z' });
          throw new Error('the whole commit fails');
        }),
      ).toThrow('the whole commit fails');
      expect([...store.changes.after(0)].map((change) => [change.seq, change.id])).toEqual([
        [1, 'a'],
        [2, 'c'],
      ]);
      expect(store.changes.last).toBe(2);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('change streams across a restart', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedded-change-streams-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('resumes after a token from before the restart: the log is stored with the data', async () => {
    let server = await startEmbeddedMongo({ dataDir: dir });
    let conn = await new MongoClient(server.uri).connect();
    let coll = conn.db('restart').collection('messages');
    const stream = await opened(watch(coll));
    await coll.insertOne({ _id: 'seen' as any });
    const [seen] = await take(stream, 1);
    await coll.insertOne({ _id: 'unseen' as any });
    await stream.close();
    await conn.close();
    await server.close();

    server = await startEmbeddedMongo({ dataDir: dir });
    try {
      conn = await new MongoClient(server.uri).connect();
      coll = conn.db('restart').collection('messages');
      await coll.updateOne({ _id: 'seen' as any }, { $set: { deleted: true } });
      const resumed = watch(coll, [], { resumeAfter: seen?._id as ResumeToken });
      const events = await take(resumed, 2);
      expect(events.map((e) => [e.operationType, (e as any).documentKey._id])).toEqual([
        ['insert', 'unseen'],
        ['update', 'seen'],
      ]);
      await resumed.close();
      await conn.close();
    } finally {
      await server.close();
    }
  });
});
