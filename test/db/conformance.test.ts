import {
  type Db,
  type Document,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCommands } from '../support/commands.js';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

// Driver-level behaviour the service relies on; runs unchanged on any backend startTestMongo picks.
let mongo: TestMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await startTestMongo();
  client = await new MongoClient(mongo.uri).connect();
  db = client.db(uniqueDbName('conformance'));
});

afterAll(async () => {
  await db?.dropDatabase();
  await client?.close();
  await mongo?.stop();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the operation should have failed'),
    (error: unknown) => error as MongoServerError,
  );

describe('CRUD', () => {
  it('inserts, reads, updates with operators, replaces and deletes', async () => {
    const c = db.collection('crud');
    const { insertedId } = await c.insertOne({ name: 'a', n: 1, tags: ['x'] });
    expect(await c.findOne({ _id: insertedId })).toEqual({
      _id: insertedId,
      name: 'a',
      n: 1,
      tags: ['x'],
    });

    const updated = await c.updateOne(
      { _id: insertedId },
      { $set: { 'meta.by': 'me' }, $inc: { n: 2 }, $unset: { tags: '' } },
    );
    expect(updated).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ 'meta.by': 'me' }, { projection: { _id: 0 } })).toEqual({
      name: 'a',
      n: 3,
      meta: { by: 'me' },
    });
    expect(await c.updateOne({ _id: insertedId }, { $set: { n: 3 } })).toMatchObject({
      matchedCount: 1,
      modifiedCount: 0,
    });

    await c.replaceOne({ _id: insertedId }, { name: 'b' });
    expect(await c.findOne({ _id: insertedId })).toEqual({ _id: insertedId, name: 'b' });

    await c.insertMany([
      { name: 'c', n: 1 },
      { name: 'd', n: 1 },
      { name: 'e', n: 2 },
    ]);
    expect(await c.updateMany({ n: 1 }, { $inc: { n: 10 } })).toMatchObject({
      matchedCount: 2,
      modifiedCount: 2,
    });
    expect(await c.countDocuments({ n: 11 })).toBe(2);
    expect(await c.deleteOne({ n: 11 })).toMatchObject({ deletedCount: 1 });
    expect(await c.deleteMany({})).toMatchObject({ deletedCount: 3 });
  });

  it('upserts: the filter seeds the document, $setOnInsert applies only on insert', async () => {
    const c = db.collection('upsert');
    const first = await c.updateOne(
      { code: 'u1' },
      { $set: { seen: 1 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(first).toMatchObject({ upsertedCount: 1, matchedCount: 0 });
    const second = await c.updateOne(
      { code: 'u1' },
      { $set: { seen: 2 }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(second).toMatchObject({ upsertedCount: 0, matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ code: 'u1' }, { projection: { _id: 0 } })).toEqual({
      code: 'u1',
      seen: 2,
      created: true,
    });
  });

  it('applies array and comparison operators, and refuses conflicting or ill-typed updates', async () => {
    const c = db.collection<{
      meta: { code: string };
      n: number;
      list: number[];
      tags: string[];
      low: number;
    }>('operators');
    await c.updateOne({ 'meta.code': 'o1' }, { $set: { n: 5, list: [1] } }, { upsert: true });
    await c.updateOne(
      { 'meta.code': 'o1' },
      {
        $push: { list: { $each: [2, 3] } },
        $addToSet: { tags: 'a' },
        $max: { n: 9 },
        $min: { low: 4 },
      },
    );
    await c.updateOne(
      { 'meta.code': 'o1' },
      { $addToSet: { tags: 'a' }, $pull: { list: { $gte: 3 } }, $mul: { low: 2 } },
    );
    expect(await c.findOne({}, { projection: { _id: 0 } })).toEqual({
      meta: { code: 'o1' },
      n: 9,
      list: [1, 2],
      tags: ['a'],
      low: 8,
    });

    const untyped = db.collection('operators');
    await expect(
      untyped.updateOne({}, { $set: { n: 1 }, $setOnInsert: { n: 2 } }),
    ).rejects.toMatchObject({ code: 40 });
    await expect(
      untyped.updateOne({}, { $set: { meta: {} }, $inc: { 'meta.count': 1 } }),
    ).rejects.toMatchObject({ code: 40 });
    await expect(untyped.updateOne({}, { $set: { _id: 'other' } })).rejects.toMatchObject({
      code: 66,
    });
    await expect(untyped.updateOne({}, { $inc: { tags: 1 } })).rejects.toMatchObject({ code: 14 });
    await expect(untyped.updateOne({}, { $set: { 'n.deeper': 1 } })).rejects.toMatchObject({
      code: 28,
    });
  });

  it('findOneAndUpdate / Replace / Delete return the document before or after', async () => {
    const c = db.collection('fam');
    await c.insertOne({ code: 'f', hits: 0 });
    const before = await c.findOneAndUpdate({ code: 'f' }, { $inc: { hits: 1 } });
    expect(before).toMatchObject({ hits: 0 });
    const after = await c.findOneAndUpdate(
      { code: 'f' },
      { $inc: { hits: 1 } },
      { returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(after).toEqual({ code: 'f', hits: 2 });
    expect(await c.findOneAndUpdate({ code: 'none' }, { $set: { x: 1 } })).toBeNull();
    expect(
      await c.findOneAndReplace(
        { code: 'f' },
        { code: 'g' },
        { returnDocument: 'after', projection: { _id: 0 } },
      ),
    ).toEqual({ code: 'g' });
    expect(await c.findOneAndDelete({ code: 'g' })).toMatchObject({ code: 'g' });
    expect(await c.countDocuments()).toBe(0);
  });

  it('sorts, skips, limits and projects', async () => {
    const c = db.collection('paging');
    await c.insertMany(
      Array.from({ length: 10 }, (_, i) => ({ i, odd: i % 2 === 1, label: `n${i}` })),
    );
    const page = await c
      .find({ odd: true }, { projection: { _id: 0, i: 1 } })
      .sort({ i: -1 })
      .skip(1)
      .limit(3)
      .toArray();
    expect(page).toEqual([{ i: 7 }, { i: 5 }, { i: 3 }]);
    const excluded = await c.find({ i: 0 }, { projection: { _id: 0, label: 0 } }).toArray();
    expect(excluded).toEqual([{ i: 0, odd: false }]);
  });

  it('stores and returns a document of several megabytes', async () => {
    const c = db.collection('large');
    const text = 'x'.repeat(4 * 1024 * 1024);
    const { insertedId } = await c.insertOne({ text });
    expect((await c.findOne({ _id: insertedId }))?.text).toBe(text);
  });

  it('acknowledges nothing for w:0 writes, which still apply', async () => {
    const single = await new MongoClient(mongo.uri, { maxPoolSize: 1 }).connect();
    try {
      const c = single.db(db.databaseName).collection('w0');
      await c.insertOne({ quiet: true }, { writeConcern: { w: 0 } });
      expect(await c.countDocuments({ quiet: true })).toBe(1);
    } finally {
      await single.close();
    }
  });
});

describe('cursors', () => {
  it('returns more than one batch through getMore, and kills a cursor closed early', async () => {
    // A client of its own with command monitoring, to see what is actually sent.
    const monitored = await new MongoClient(mongo.uri, { monitorCommands: true }).connect();
    const commands = recordCommands(monitored);
    try {
      const c = monitored.db(db.databaseName).collection('many');
      await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));

      commands.clear();
      const all = await c.find().sort({ i: 1 }).toArray();
      expect(all.map((d) => d.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
      // The first batch holds 101 documents by default: the rest must come through getMore.
      expect(commands.names()[0]).toBe('find');
      expect(commands.names().filter((name) => name === 'getMore').length).toBeGreaterThan(0);

      commands.clear();
      let seen = 0;
      for await (const doc of c.find({}, { batchSize: 40 }).sort({ i: -1 }))
        expect(doc.i).toBe(249 - seen++);
      expect(seen).toBe(250);
      // 40 in the first batch, then 40, 40, 40, 40, 40 and 10: six getMores, each on this collection.
      expect(commands.names()).toEqual([
        'find',
        'getMore',
        'getMore',
        'getMore',
        'getMore',
        'getMore',
        'getMore',
      ]);
      for (const { name, command } of commands.commands())
        if (name === 'getMore') expect(command.collection).toBe('many');

      expect(await c.find().limit(150).toArray()).toHaveLength(150);
      expect(await c.aggregate([{ $sort: { i: -1 } }]).toArray()).toHaveLength(250);

      // A cursor closed with documents left on the server is killed there.
      commands.clear();
      const cursor = c.find({}, { batchSize: 10 });
      expect((await cursor.next())?.i).toBe(0);
      const id = cursor.id;
      expect(id?.toString()).not.toBe('0');
      await cursor.close();
      expect(cursor.killed).toBe(true);
      expect(commands.names()).toEqual(['find', 'killCursors']);
      const kill = commands.commands()[1]?.command;
      expect(kill?.killCursors).toBe('many');
      expect((kill?.cursors as unknown[] | undefined)?.map(String)).toEqual([String(id)]);
    } finally {
      commands.stop();
      await monitored.close();
    }
  });
});

describe('unique indexes', () => {
  it('refuses a duplicate from insertOne, insertMany, updates and findOneAndUpdate with 11000', async () => {
    const c = db.collection('unique');
    await c.createIndex({ code: 1 }, { unique: true });
    await c.insertOne({ code: 'a' });

    const single = await failure(c.insertOne({ code: 'a' }));
    expect(single).toBeInstanceOf(MongoServerError);
    expect(single).toMatchObject({ code: 11000, keyPattern: { code: 1 }, keyValue: { code: 'a' } });

    const many = await failure(c.insertMany([{ code: 'b' }, { code: 'a' }, { code: 'c' }]));
    expect(many).toBeInstanceOf(MongoBulkWriteError);
    const bulk = many as unknown as MongoBulkWriteError;
    expect(bulk.insertedCount).toBe(1);
    const [writeError] = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : [bulk.writeErrors];
    expect(writeError).toMatchObject({
      index: 1,
      code: 11000,
      errmsg: expect.stringContaining('E11000'),
    });
    expect(await c.countDocuments({ code: 'c' })).toBe(0);

    await failure(c.insertMany([{ code: 'a' }, { code: 'd' }], { ordered: false }));
    expect(await c.countDocuments({ code: 'd' })).toBe(1);

    const update = await failure(c.updateOne({ code: 'b' }, { $set: { code: 'a' } }));
    expect(update).toMatchObject({ code: 11000, keyValue: { code: 'a' } });
    const upsert = await failure(
      c.updateOne({ other: 1 }, { $set: { code: 'a' } }, { upsert: true }),
    );
    expect(upsert).toMatchObject({ code: 11000, keyPattern: { code: 1 } });
    const fam = await failure(
      c.findOneAndUpdate({ other: 2 }, { $set: { code: 'b' } }, { upsert: true }),
    );
    expect(fam).toBeInstanceOf(MongoServerError);
    expect(fam).toMatchObject({ code: 11000, keyPattern: { code: 1 }, keyValue: { code: 'b' } });
  });

  it('reports every field of a compound unique index', async () => {
    const c = db.collection('compound');
    await c.createIndex({ type: 1, for: 1 }, { unique: true });
    await c.insertOne({ type: 't', for: 'x' });
    await c.insertOne({ type: 't', for: 'y' });
    const error = await failure(c.insertOne({ type: 't', for: 'x' }));
    expect(error).toMatchObject({
      code: 11000,
      keyPattern: { type: 1, for: 1 },
      keyValue: { type: 't', for: 'x' },
    });
  });

  it('keeps one document when 20 upserts race on one key', async () => {
    const c = db.collection('race');
    await c.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.findOneAndUpdate(
          { key: 'k' },
          { $setOnInsert: { first: i }, $inc: { hits: 1 } },
          { upsert: true, returnDocument: 'after' },
        ),
      ),
    );
    expect(await c.countDocuments()).toBe(1);
    expect(new Set(results.map((doc) => doc?._id.toHexString())).size).toBe(1);
    expect(await c.findOne({ key: 'k' })).toMatchObject({ hits: 20 });
  });

  it('applies a partial unique index only to documents that have the field', async () => {
    const c = db.collection('partial');
    await c.createIndex(
      { hash: 1 },
      { unique: true, partialFilterExpression: { hash: { $exists: true } } },
    );
    await c.insertMany([{ code: 'm1' }, { code: 'm2' }, { code: 'p1', hash: 'h' }]);
    const error = await failure(c.insertOne({ code: 'p2', hash: 'h' }));
    expect(error).toMatchObject({ code: 11000, keyValue: { hash: 'h' } });
    expect(await c.find({ hash: 'h' }).toArray()).toHaveLength(1);
    expect(await c.countDocuments({ hash: { $exists: false } })).toBe(2);
  });

  it('applies a sparse unique index only to documents that have the field', async () => {
    const c = db.collection('sparse');
    await c.createIndex({ user: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ n: 1 }, { n: 2 }, { user: 'u' }]);
    await expect(c.insertOne({ user: 'u' })).rejects.toMatchObject({ code: 11000 });
  });

  it('lists indexes, accepts an identical one again and refuses a conflicting one', async () => {
    const c = db.collection('indexes');
    await c.createIndex({ slug: 1 }, { name: 'slug_unique', unique: true });
    await c.createIndex({ slug: 1 }, { name: 'slug_unique', unique: true });
    const indexes = await c.listIndexes().toArray();
    expect(indexes.map((ix) => ix.name)).toEqual(['_id_', 'slug_unique']);
    expect(indexes[1]).toMatchObject({ key: { slug: 1 }, unique: true });
    await expect(c.createIndex({ slug: 1 }, { name: 'slug_unique' })).rejects.toMatchObject({
      code: 86,
    });
    await expect(c.createIndex({ other: 1 }, { name: 'slug_unique' })).rejects.toMatchObject({
      code: 86,
    });
    await expect(
      c.createIndex({ slug: 1 }, { name: 'slug_again', unique: true }),
    ).rejects.toMatchObject({ code: 85 });
    await c.dropIndex('slug_unique');
    expect((await c.listIndexes().toArray()).map((ix) => ix.name)).toEqual(['_id_']);
  });
});

describe('queries', () => {
  it('matches regexes, case-insensitively too', async () => {
    const c = db.collection('regex');
    await c.insertMany(['Alpha', 'alphabet', 'ALPS', 'beta'].map((name) => ({ name })));
    expect(await c.countDocuments({ name: /^alp/i })).toBe(3);
    expect(await c.countDocuments({ name: { $regex: '^AL', $options: 'i' } })).toBe(3);
    expect(await c.countDocuments({ name: /^alp/ })).toBe(1);
    await expect(c.countDocuments({ name: { $regex: '(' } })).rejects.toMatchObject({
      code: 51091,
    });
  });

  it('selects a date range, sorted and limited, leaving out documents without the field', async () => {
    const c = db.collection('dates');
    const day = (n: number) => new Date(Date.UTC(2024, 0, n));
    await c.insertMany([
      ...Array.from({ length: 10 }, (_, i) => ({ n: i + 1, when: day(i + 1) })),
      { n: 0 },
    ]);
    const found = await c
      .find({ when: { $gte: day(3), $lt: day(8) } })
      .sort({ when: -1 })
      .limit(3)
      .toArray();
    expect(found.map((d) => d.n)).toEqual([7, 6, 5]);
    expect(await c.countDocuments({ when: { $lt: day(3) } })).toBe(2);
  });

  it('finds by $in on an indexed field and on _id', async () => {
    const c = db.collection('in');
    await c.createIndex({ code: 1 }, { unique: true });
    const ids = [new ObjectId(), new ObjectId(), new ObjectId()] as const;
    await c.insertMany([
      { _id: ids[0], code: 'a' },
      { _id: ids[1], code: 'b' },
      { _id: ids[2], code: 'c' },
      { code: 'd' },
    ]);
    const byCode = await c
      .find({ code: { $in: ['b', 'd', 'zz'] } })
      .sort({ code: 1 })
      .toArray();
    expect(byCode.map((d) => d.code)).toEqual(['b', 'd']);
    const byId = await c
      .find({ _id: { $in: [ids[0], ids[2], new ObjectId()] } })
      .sort({ code: 1 })
      .toArray();
    expect(byId.map((d) => d.code)).toEqual(['a', 'c']);
  });

  it('pages with an $or cursor filter sorted by {when: -1, _id: -1}', async () => {
    const c = db.collection('chat');
    await c.createIndex({ when: -1, _id: -1 });
    const base = Date.UTC(2024, 5, 1);
    await c.insertMany(
      Array.from({ length: 30 }, (_, i) => ({
        text: `m${i}`,
        when: new Date(base + Math.floor(i / 3) * 60_000),
      })),
    );
    const sort = { when: -1, _id: -1 } as const;
    const all = await c.find().sort(sort).toArray();
    const expected = [...all].sort(
      (a, b) => b.when - a.when || b._id.toHexString().localeCompare(a._id.toHexString()),
    );
    expect(all.map((d) => d.text)).toEqual(expected.map((d) => d.text));

    const pages: Document[] = [];
    let page = await c.find().sort(sort).limit(7).toArray();
    while (page.length > 0) {
      pages.push(...page);
      const last = page[page.length - 1] as Document;
      const before = {
        $or: [{ when: { $lt: last.when } }, { when: last.when, _id: { $lt: last._id } }],
      };
      page = await c.find(before).sort(sort).limit(7).toArray();
    }
    expect(pages.map((d) => d.text)).toEqual(all.map((d) => d.text));
  });

  it('counts documents and lists distinct values', async () => {
    const c = db.collection('counts');
    await c.insertMany([
      { tags: ['a', 'b'], k: 1 },
      { tags: ['b', 'c'], k: 1 },
      { tags: 'd', k: 2 },
      { k: 2 },
    ]);
    expect(await c.countDocuments({ k: 1 })).toBe(2);
    expect(await c.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await c.estimatedDocumentCount()).toBe(4);
    expect((await c.distinct('tags')).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect((await c.distinct('tags', { k: 1 })).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('aggregation', () => {
  it('groups and counts', async () => {
    const c = db.collection('group');
    await c.insertMany([{ kind: 'a' }, { kind: 'b' }, { kind: 'a' }, { kind: 'a' }, { kind: 'b' }]);
    const groups = await c
      .aggregate([{ $group: { _id: '$kind', n: { $sum: 1 } } }, { $sort: { n: -1 } }])
      .toArray();
    expect(groups).toEqual([
      { _id: 'a', n: 3 },
      { _id: 'b', n: 2 },
    ]);
    expect(await c.aggregate([{ $match: { kind: 'b' } }, { $count: 'total' }]).toArray()).toEqual([
      { total: 2 },
    ]);
  });

  it('joins with $lookup, unwinds and projects', async () => {
    const handles = db.collection('handles');
    const messages = db.collection('messages');
    await handles.insertMany([
      { _id: 'u1' as never, handle: 'jo' },
      { _id: 'u2' as never, handle: 'al' },
    ]);
    await messages.insertMany([
      { text: 'hi', user: 'u1' },
      { text: 'yo', user: 'u2' },
      { text: 'anon', user: '' },
    ]);
    const joined = await messages
      .aggregate([
        { $lookup: { from: 'handles', localField: 'user', foreignField: '_id', as: 'who' } },
        { $unwind: { path: '$who', preserveNullAndEmptyArrays: true } },
        { $addFields: { from: { $ifNull: ['$who.handle', 'anon'] } } },
        { $project: { _id: 0, text: 1, from: 1 } },
        { $sort: { text: 1 } },
      ])
      .toArray();
    expect(joined).toEqual([
      { text: 'anon', from: 'anon' },
      { text: 'hi', from: 'jo' },
      { text: 'yo', from: 'al' },
    ]);
    expect(await handles.findOne({ _id: 'u1' as never })).toEqual({ _id: 'u1', handle: 'jo' });
  });

  it('merges two collections with $unionWith, keeping one order', async () => {
    const minute = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, n));
    await db.collection('channel-a').insertMany([1, 4, 5].map((n) => ({ n, when: minute(n) })));
    await db.collection('channel-b').insertMany([2, 3, 6].map((n) => ({ n, when: minute(n) })));
    const channel = (name: string) => [
      { $match: { when: { $lt: minute(6) } } },
      { $sort: { when: -1 } },
      { $limit: 2 },
      { $project: { _id: 0, n: 1, channel: { $literal: name } } },
    ];
    const merged = await db
      .collection('channel-a')
      .aggregate([
        ...channel('a'),
        { $unionWith: { coll: 'channel-b', pipeline: channel('b') } },
        { $sort: { n: -1 } },
        { $limit: 3 },
      ])
      .toArray();
    expect(merged).toEqual([
      { n: 5, channel: 'a' },
      { n: 4, channel: 'a' },
      { n: 3, channel: 'b' },
    ]);
  });

  type Tagged = { _id: number; n: number; kind?: string };
  it('tags each branch with a $literal, skips and limits after a union, each document its own copy', async () => {
    await db
      .collection<Tagged>('tag-a')
      .insertMany([1, 3, 5].map((n) => ({ _id: n, n, kind: 'old' })));
    await db.collection<Tagged>('tag-b').insertMany([2, 4].map((n) => ({ _id: n, n })));
    const tagged = (kind: string) => [
      { $sort: { n: -1 } },
      { $addFields: { kind: { $literal: kind }, meta: { $literal: { from: kind } } } },
    ];
    const merged = await db
      .collection('tag-a')
      .aggregate([
        ...tagged('a'),
        { $unionWith: { coll: 'tag-b', pipeline: tagged('b') } },
        { $sort: { n: -1 } },
        { $skip: 1 },
        { $limit: 3 },
        // A literal object set on every document: changing one document's copy changes no other.
        { $set: { 'meta.n': '$n', dollar: { $literal: '$n' } } },
      ])
      .toArray();
    expect(merged).toEqual([
      // An existing field keeps its place; a new one comes last.
      { _id: 4, n: 4, kind: 'b', meta: { from: 'b', n: 4 }, dollar: '$n' },
      { _id: 3, n: 3, kind: 'a', meta: { from: 'a', n: 3 }, dollar: '$n' },
      { _id: 2, n: 2, kind: 'b', meta: { from: 'b', n: 2 }, dollar: '$n' },
    ]);
    expect(merged.map((doc) => Object.keys(doc))).toEqual([
      ['_id', 'n', 'kind', 'meta', 'dollar'],
      ['_id', 'n', 'kind', 'meta', 'dollar'],
      ['_id', 'n', 'kind', 'meta', 'dollar'],
    ]);
  });
});

describe('collections and errors', () => {
  it('creates, lists and drops collections', async () => {
    await db.createCollection('made');
    await expect(db.createCollection('made')).rejects.toMatchObject({ code: 48 });
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map(
      (entry) => entry.name,
    );
    expect(names).toContain('made');
    expect(await db.collection('made').drop()).toBe(true);
    expect((await db.listCollections({ name: 'made' }).toArray()).length).toBe(0);
  });

  it('answers an unknown operator or command with a server error', async () => {
    await expect(
      db.collection('crud').findOne({ x: { $noSuchOperator: 1 } }),
    ).rejects.toBeInstanceOf(MongoServerError);
    await expect(db.command({ noSuchCommand: 1 })).rejects.toMatchObject({ code: 59 });
  });

  it('refuses transactions on a standalone server', async (context) => {
    const hello = await db.admin().command({ hello: 1 });
    if (hello.setName || hello.msg === 'isdbgrid') context.skip();
    const session = client.startSession();
    try {
      session.startTransaction();
      await expect(db.collection('tx').insertOne({ a: 1 }, { session })).rejects.toThrow();
    } finally {
      await session.abortTransaction().catch(() => undefined);
      await session.endSession();
    }
  });
});
