import {
  Binary,
  type Document,
  Long,
  MaxKey,
  MinKey,
  type MongoClient,
  ObjectId,
  Timestamp,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { embeddedClientPerFile } from '../support/embedded-client.js';

// How the embedded server finds documents: what `explain` says it examined, and the order and
// selection that follow from index ranges; and how much of the data file it keeps them in (these
// figures are the embedded engine's own).
const connected = embeddedClientPerFile();

async function examined(
  coll: ReturnType<ReturnType<MongoClient['db']>['collection']>,
  filter: Document,
  options: { sort?: Document; limit?: number; hint?: string } = {},
) {
  const plan = await coll.find(filter, options).explain('executionStats');
  const stage = plan.queryPlanner.winningPlan;
  return {
    index: stage.inputStage?.indexName ?? stage.stage,
    keys: plan.executionStats.totalKeysExamined,
    docs: plan.executionStats.totalDocsExamined,
    returned: plan.executionStats.nReturned,
  };
}

describe('index range scans', () => {
  it('narrows equality, $in, comparisons and anchored regexes to index ranges', async () => {
    const c = connected().db('ranges').collection('items');
    await c.createIndex({ n: 1 });
    await c.createIndex({ kind: 1, n: -1 });
    await c.createIndex({ name: 1 });
    await c.insertMany(
      Array.from({ length: 2000 }, (_, i) => ({
        n: i,
        kind: `k${i % 4}`,
        name: `item-${String(i).padStart(4, '0')}`,
      })),
    );
    expect(await examined(c, { n: { $gte: 100, $lt: 110 } })).toEqual({
      index: 'n_1',
      keys: 10,
      docs: 10,
      returned: 10,
    });
    expect(await examined(c, { n: { $in: [5, 7, 5000] } })).toMatchObject({ keys: 2, returned: 2 });
    expect(await examined(c, { kind: 'k1', n: { $gt: 1900 } })).toEqual({
      index: 'kind_1_n_-1',
      keys: 25,
      docs: 25,
      returned: 25,
    });
    expect(await examined(c, { name: /^item-01/ })).toMatchObject({
      index: 'name_1',
      keys: 100,
      returned: 100,
    });
    // Type bracketing: a number bound never reaches strings, and the reverse.
    await c.insertOne({ n: 'text' });
    expect(await examined(c, { n: { $gt: 1995 } })).toMatchObject({ keys: 4, returned: 4 });
    expect(await c.countDocuments({ n: { $gte: '' } })).toBe(1);
  });

  it('pages a (when, _id) index at any depth examining about the page size', async () => {
    const c = connected().db('ranges').collection('chat');
    await c.createIndex({ when: -1, _id: -1 });
    const start = Date.UTC(2026, 0, 1);
    await c.insertMany(
      Array.from({ length: 5000 }, (_, i) => ({
        _id: new ObjectId(),
        text: `message ${i}`,
        when: new Date(start + i * 1000),
      })),
    );
    for (const depth of [4990, 2500, 60]) {
      const bound = new Date(start + depth * 1000);
      const page = await c
        .find({ when: { $lt: bound } }, { sort: { when: -1, _id: -1 }, limit: 50 })
        .toArray();
      expect(page.map((m) => m.text)).toEqual(
        Array.from({ length: 50 }, (_, i) => `message ${depth - 1 - i}`),
      );
      expect(
        await examined(c, { when: { $lt: bound } }, { sort: { when: -1, _id: -1 }, limit: 50 }),
      ).toEqual({ index: 'when_-1__id_-1', keys: 50, docs: 50, returned: 50 });
    }
    // Oldest first walks the same index backwards.
    const oldest = await c.find({}, { sort: { when: 1, _id: 1 }, limit: 3 }).toArray();
    expect(oldest.map((m) => m.text)).toEqual(['message 0', 'message 1', 'message 2']);
    expect(await examined(c, {}, { sort: { when: 1, _id: 1 }, limit: 3 })).toMatchObject({
      index: 'when_-1__id_-1',
      keys: 3,
    });
    // A filter no index narrows still stops once the page is full.
    expect(
      await examined(c, { text: /message 4/ }, { sort: { when: -1, _id: -1 }, limit: 5 }),
    ).toMatchObject({ index: 'when_-1__id_-1', returned: 5, docs: 5 });
  });

  it('bounds an index scan by an $or whose every branch bounds the field (keyset pages)', async () => {
    const c = connected().db('ranges').collection('ranked');
    await c.createIndex({ hits: -1, when: -1, _id: -1 });
    await c.insertMany(
      Array.from(
        { length: 2000 },
        (_, i): Document => ({ _id: i, hits: i % 100, when: new Date(i) }),
      ),
    );
    // The page after (hits 10, when 1510): fewer hits, or as many and older; no count last.
    const after: Document = {
      $or: [{ hits: { $lt: 10 } }, { hits: null }, { hits: 10, when: { $lt: new Date(1510) } }],
    };
    const sort = { hits: -1, when: -1, _id: -1 } as const;
    const page = await c.find(after, { sort, limit: 4 }).toArray();
    expect(page.map((d) => [d.hits, d._id])).toEqual([
      [10, 1410],
      [10, 1310],
      [10, 1210],
      [10, 1110],
    ]);
    expect(await examined(c, after, { sort, limit: 4 })).toMatchObject({
      index: 'hits_-1_when_-1__id_-1',
      returned: 4,
    });
    expect((await examined(c, after, { sort, limit: 4 })).keys).toBeLessThan(10);
    // A branch that leaves the field open leaves the scan open too (and still finds everything).
    const open: Document = { $or: [{ hits: { $lt: 1 } }, { when: new Date(1999) }] };
    expect(await c.countDocuments(open)).toBe(21);
  });

  it('streams a collection scan and stops at the limit', async () => {
    const c = connected().db('ranges').collection('plain');
    await c.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i })));
    expect(await examined(c, { i: { $gte: 0 } }, { limit: 7 })).toMatchObject({
      index: 'COLLSCAN',
      docs: 7,
      returned: 7,
    });
  });

  it('sorts by a compound index with a pinned leading field, in both directions', async () => {
    const c = connected().db('ranges').collection('scores');
    await c.createIndex({ game: 1, score: -1, at: 1 });
    await c.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ game: `g${i % 3}`, score: i % 50, at: i })),
    );
    const best = await c.find({ game: 'g1' }, { sort: { score: -1, at: 1 }, limit: 4 }).toArray();
    expect(best.map((d) => [d.score, d.at])).toEqual([
      [49, 49],
      [49, 199],
      [48, 148],
      [48, 298],
    ]);
    const worst = await c.find({ game: 'g1' }, { sort: { score: 1, at: -1 }, limit: 2 }).toArray();
    expect(worst.map((d) => [d.score, d.at])).toEqual([
      [0, 250],
      [0, 100],
    ]);
    expect(
      await examined(c, { game: 'g1' }, { sort: { score: 1, at: -1 }, limit: 2 }),
    ).toMatchObject({ index: 'game_1_score_-1_at_1', keys: 2 });
  });
});

describe('backward reads', () => {
  it('finds `_id` values and inclusive bounds when reading the `_id` order backwards', async () => {
    const c = connected().db('ranges').collection<{ _id: number }>('backwards');
    await c.insertMany([1, 2, 3, 4, 5].map((_id) => ({ _id })));
    const ids = async (filter: Document) =>
      (await c.find(filter, { sort: { _id: -1 } }).toArray()).map((d) => d._id);
    expect(await ids({ _id: { $in: [1, 2, 5] } })).toEqual([5, 2, 1]);
    expect(await ids({ _id: 3 })).toEqual([3]);
    expect(await ids({ _id: { $gte: 2, $lte: 4 } })).toEqual([4, 3, 2]);
    expect(await ids({ _id: { $gt: 2, $lt: 4 } })).toEqual([3]);
  });

  it('reads a descending index in its order and in reverse, and says which way it went', async () => {
    const c = connected().db('ranges').collection('newest-first');
    await c.createIndex({ when: -1 });
    await c.insertMany(Array.from({ length: 100 }, (_, i) => ({ when: i })));
    const plan = async (sort: Document) => {
      const explained = await c.find({ when: { $gte: 10 } }, { sort, limit: 2 }).explain();
      return explained.queryPlanner.winningPlan.inputStage.direction;
    };
    const whens = async (sort: Document) =>
      (await c.find({ when: { $gte: 10, $lte: 20 } }, { sort, limit: 3 }).toArray()).map(
        (d) => d.when,
      );
    expect(await whens({ when: -1 })).toEqual([20, 19, 18]);
    expect(await plan({ when: -1 })).toBe('forward');
    expect(await whens({ when: 1 })).toEqual([10, 11, 12]);
    expect(await plan({ when: 1 })).toBe('backward');
  });
});

describe('sorts without an index', () => {
  it('keeps only the best skip + limit documents and returns them in order', async () => {
    const c = connected().db('ranges').collection('unindexed');
    const values = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3001);
    await c.insertMany(values.map((v) => ({ v })));
    const page = await c.find({}, { sort: { v: -1 }, skip: 10, limit: 5 }).toArray();
    const expected = [...values].sort((a, b) => b - a).slice(10, 15);
    expect(page.map((d) => d.v)).toEqual(expected);
    const all = await c.find({}, { sort: { v: 1 } }).toArray();
    expect(all.map((d) => d.v)).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('index key order', () => {
  it("orders an index by MongoDB's comparison order across BSON types", async () => {
    const c = connected().db('order').collection('mixed');
    await c.createIndex({ v: 1 });
    const values: Array<[string, unknown]> = [
      ['maxKey', new MaxKey()],
      ['regex', /abc/],
      ['timestamp', new Timestamp({ t: 1, i: 1 })],
      ['date', new Date(0)],
      ['true', true],
      ['false', false],
      ['objectId', new ObjectId('000000000000000000000000')],
      ['binData', new Binary(Buffer.from([1, 2]))],
      ['array', [[1]]],
      ['object', { a: 1 }],
      ['string b', 'b'],
      ['string a', 'a'],
      ['long', Long.fromNumber(3)],
      ['double', 2.5],
      ['negative', -1],
      ['null', null],
      ['minKey', new MinKey()],
    ];
    await c.insertMany(values.map(([name, v]) => ({ name, v })));
    await c.insertOne({ name: 'missing' });
    const ascending = await c.find({}, { sort: { v: 1 }, hint: 'v_1' }).toArray();
    expect(ascending.map((d) => d.name)).toEqual([
      'minKey',
      'null',
      'missing',
      'negative',
      'double',
      'long',
      'string a',
      'string b',
      'object',
      'array',
      'binData',
      'objectId',
      'false',
      'true',
      'date',
      'timestamp',
      'regex',
      'maxKey',
    ]);
    const descending = await c.find({}, { sort: { v: -1 }, hint: 'v_1' }).toArray();
    expect(descending.at(0)?.name).toBe('maxKey');
    expect(descending.at(-1)?.name).toBe('minKey');
    expect((await c.find({ v: { $gte: 'a' } }).toArray()).map((d) => d.name)).toEqual([
      'string a',
      'string b',
    ]);
    expect((await c.find({ v: null }).toArray()).map((d) => d.name).sort()).toEqual([
      'missing',
      'null',
    ]);
  });
});

describe('hints', () => {
  it('refuses a hint naming no index with BadValue', async () => {
    const c = connected().db('order').collection('hinted');
    await c.insertOne({ a: 1 });
    await expect(c.find({ a: 1 }, { hint: 'nope_1' }).toArray()).rejects.toMatchObject({
      code: 2,
      codeName: 'BadValue',
    });
    await expect(c.find({ a: 1 }, { hint: { a: 1 } }).toArray()).rejects.toMatchObject({
      code: 2,
    });
    expect(await c.find({ a: 1 }, { hint: { _id: 1 } }).toArray()).toHaveLength(1);
  });
});

describe('page use', () => {
  it('keeps pages nearly full while collections written together each grow in key order', async () => {
    const db = connected().db('pages');
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

describe('limits', () => {
  it('refuses a collection past its table limit with a clear error, keeping those it has', async () => {
    const db = connected().db('many');
    const made = await (async () => {
      for (let i = 0; ; i++) {
        try {
          await db.createCollection(`c${i}`);
        } catch (error) {
          return { count: i, error: error as { codeName?: string; message: string } };
        }
      }
    })();
    expect(made.error).toMatchObject({ codeName: 'OperationFailed' });
    expect(made.error.message).toMatch(/at most 4094 collections and indexes/);
    // Every table so far (the other tests' too) is still there and usable.
    expect(made.count).toBeGreaterThan(4000);
    await db.collection('c0').insertOne({ ok: true });
    expect(await db.collection('c0').countDocuments()).toBe(1);
    await db.dropDatabase();
    await db.createCollection('after');
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['after']);
  });
});
