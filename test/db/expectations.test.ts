import { type Db, MongoBulkWriteError, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

// What mongosh and drivers expect of a server, on any backend startTestMongo picks.
let mongo: TestMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await startTestMongo();
  client = await new MongoClient(mongo.uri).connect();
  db = client.db(uniqueDbName('expectations'));
});

afterAll(async () => {
  await db?.dropDatabase();
  await client?.close();
  await mongo?.stop();
});

describe('statistics', () => {
  it('answers dbStats, collStats, $collStats, serverStatus, hostInfo and listDatabases sizes', async () => {
    const notes = db.collection('notes');
    await notes.createIndex({ n: 1 });
    await notes.insertMany(Array.from({ length: 500 }, (_, n) => ({ n, text: 'x'.repeat(100) })));

    const stats = await db.command({ dbStats: 1 });
    expect(stats).toMatchObject({ db: db.databaseName, collections: 1, objects: 500, indexes: 2 });
    expect(stats.dataSize).toBeGreaterThan(500 * 100);
    expect(stats.storageSize).toBeGreaterThan(0);
    expect(stats.indexSize).toBeGreaterThan(0);

    const coll = await db.command({ collStats: 'notes' });
    expect(coll).toMatchObject({ ns: `${db.databaseName}.notes`, count: 500, nindexes: 2 });
    expect(Object.keys(coll.indexSizes).sort()).toEqual(['_id_', 'n_1']);
    expect(coll.avgObjSize).toBeGreaterThan(100);

    const [viaStage] = await notes
      .aggregate([{ $collStats: { count: {}, storageStats: {} } }])
      .toArray();
    expect(viaStage).toMatchObject({ count: 500, storageStats: { count: 500, nindexes: 2 } });

    const status = await db.admin().command({ serverStatus: 1 });
    expect(status.uptime).toBeGreaterThanOrEqual(0);
    expect(status.connections.current).toBeGreaterThanOrEqual(1);
    expect(status.opcounters.insert).toBeGreaterThanOrEqual(500);
    expect(status.mem.resident).toBeGreaterThan(0);

    const host = await db.admin().command({ hostInfo: 1 });
    expect(host.system.numCores).toBeGreaterThan(0);
    expect(host.system.memSizeMB).toBeGreaterThan(0);

    const { databases, totalSize } = await db.admin().listDatabases();
    const mine = databases.find((entry) => entry.name === db.databaseName);
    expect(mine?.sizeOnDisk).toBeGreaterThan(0);
    expect(totalSize).toBeGreaterThanOrEqual(mine?.sizeOnDisk ?? 0);
  });
});

describe('documents as drivers see them', () => {
  it('returns _id first from projections and $project', async () => {
    const people = db.collection('people');
    await people.insertOne({ name: 'a', age: 3, city: 'x' });
    const projected = await people.findOne({}, { projection: { age: 1, name: 1 } });
    expect(Object.keys(projected ?? {})).toEqual(['_id', 'name', 'age']);
    const [staged] = await people.aggregate([{ $project: { city: 1, name: 1 } }]).toArray();
    expect(Object.keys(staged ?? {})[0]).toBe('_id');
    const computed = await people.findOne({}, { projection: { upper: { $toUpper: '$name' } } });
    expect(Object.keys(computed ?? {})).toEqual(['_id', 'upper']);
  });

  it('counts in n only the statements that succeeded', async () => {
    const codes = db.collection('codes');
    await codes.createIndex({ code: 1 }, { unique: true });
    await codes.insertMany([
      { code: 'a', v: 0 },
      { code: 'b', v: 0 },
    ]);
    const error = await codes
      .bulkWrite(
        [
          { updateOne: { filter: { code: 'a' }, update: { $set: { v: 1 } } } },
          { updateOne: { filter: { code: 'b' }, update: { $set: { code: 'a' } } } },
          { updateOne: { filter: { code: 'b' }, update: { $set: { v: 2 } } } },
        ],
        { ordered: false },
      )
      .then(
        () => undefined,
        (e: MongoBulkWriteError) => e,
      );
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(error?.result.matchedCount).toBe(2);
    expect(error?.result.modifiedCount).toBe(2);
    expect(error?.writeErrors).toHaveLength(1);
  });

  it('sorts arrays by their smallest element ascending and largest descending', async () => {
    const lists = db.collection('lists');
    await lists.insertMany([
      { name: 'a', v: [1, 10] },
      { name: 'b', v: [5] },
      { name: 'c', v: [3, 7] },
    ]);
    const ascending = await lists.find().sort({ v: 1 }).toArray();
    expect(ascending.map((d) => d.name)).toEqual(['a', 'c', 'b']);
    const descending = await lists.find().sort({ v: -1 }).toArray();
    expect(descending.map((d) => d.name)).toEqual(['a', 'c', 'b']);
    const staged = await lists.aggregate([{ $sort: { v: -1 } }]).toArray();
    expect(staged.map((d) => d.name)).toEqual(['a', 'c', 'b']);
  });

  it('refuses a hint to a missing index with BadValue, for reads and writes', async () => {
    const hinted = db.collection('hinted');
    await hinted.insertOne({ a: 1 });
    await expect(hinted.find({ a: 1 }).hint('nope').toArray()).rejects.toMatchObject({ code: 2 });
    await expect(hinted.countDocuments({ a: 1 }, { hint: 'nope' })).rejects.toMatchObject({
      code: 2,
    });
    await expect(
      hinted.updateOne({ a: 1 }, { $set: { b: 1 } }, { hint: 'nope' }),
    ).rejects.toMatchObject({ code: 2 });
  });

  it('explains with executionStats: keys and documents examined, and the time', async () => {
    const explained = db.collection('explained');
    await explained.createIndex({ k: 1 });
    await explained.insertMany(Array.from({ length: 100 }, (_, k) => ({ k })));
    const plan = await explained.find({ k: { $lt: 10 } }).explain('executionStats');
    expect(plan.executionStats).toMatchObject({
      nReturned: 10,
      totalKeysExamined: 10,
      totalDocsExamined: 10,
    });
    expect(plan.executionStats.executionTimeMillis).toBeGreaterThanOrEqual(0);
  });
});
