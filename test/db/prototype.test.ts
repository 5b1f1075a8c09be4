import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

let mongo: TestMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await startTestMongo();
  client = await new MongoClient(mongo.uri).connect();
  db = client.db(uniqueDbName('prototype'));
});

afterAll(async () => {
  await db?.dropDatabase();
  await client?.close();
  await mongo?.stop();
});

it("stores '__proto__', 'constructor' and 'prototype' as ordinary fields, polluting nothing", async () => {
  const tokens = db.collection('api-tokens');
  const other = db.collection('pieces');
  await other.insertOne({ code: 'abc' });
  await tokens.insertOne({ account: 'a' });
  // The attempt from the issue: a dotted path through __proto__.
  await tokens.updateOne({ account: 'a' }, { $set: { '__proto__.polluted': 2 } });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(await other.countDocuments({ polluted: 2 })).toBe(0);
  expect(await tokens.countDocuments({ polluted: 2 })).toBe(0);
  expect(await tokens.countDocuments({ '__proto__.polluted': 2 })).toBe(1);
  const stored = await tokens.findOne({ account: 'a' }, { projection: { _id: 0 } });
  expect(stored && Object.getOwnPropertyNames(stored)).toEqual(['account', '__proto__']);

  await tokens.updateOne(
    { account: 'a' },
    { $set: { 'constructor.prototype.hacked': true, prototype: { x: 1 } } },
  );
  expect(({} as Record<string, unknown>).hacked).toBeUndefined();
  expect(await other.countDocuments({ hacked: true })).toBe(0);
  expect(await other.countDocuments({ constructor: { $exists: true } })).toBe(0);
  expect(await tokens.countDocuments({ 'constructor.prototype.hacked': true })).toBe(1);
  expect(await tokens.countDocuments({ 'prototype.x': 1 })).toBe(1);
  // An upsert seeds its document from the filter, and $unset reaches the field itself.
  await tokens.updateOne({ '__proto__.seed': 1 }, { $set: { b: 1 } }, { upsert: true });
  expect(({} as Record<string, unknown>).seed).toBeUndefined();
  expect(await tokens.countDocuments({ '__proto__.seed': 1 })).toBe(1);
  // Computed keys: a literal `__proto__:` would set the prototype, not a field.
  await tokens.updateMany({}, { $unset: { ['__proto__']: '' } });
  expect(await tokens.countDocuments({ '__proto__.polluted': 2 })).toBe(0);
  expect(await tokens.countDocuments({ account: 'a' })).toBe(1);
  expect(await other.findOne({}, { projection: { _id: 0 } })).toEqual({ code: 'abc' });
});
