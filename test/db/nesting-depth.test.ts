import { type Collection, type Document, MongoBulkWriteError, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EmbeddedClient, startEmbeddedClient } from '../support/mongo.js';

// mongod's limits (BSONDepth: maxBSONDepth 200, stored documents 20 fewer; the insert path's
// validateDepth: a document is level 1, each non-empty embedded document or array one more).
// MongoDB's manual promises "no more than 100 levels"; mongod itself refuses from level 181,
// with 15 Overflow. The figures and messages are in src/db/embedded/depth.ts.
const STORED = 180;
const BSON_LIMIT = 200;

/** `{ _id, a: { a: ... { a: leaf } } }`: a document `levels` deep (the outermost is level 1). */
function nested(levels: number, leaf: unknown = 1, id: unknown = undefined): Document {
  let value: unknown = leaf;
  for (let level = levels; level > 1; level--) value = { a: value };
  return id === undefined ? { a: value } : { _id: id, a: value };
}

/** `[[ ... [1] ... ]]` as the field `a` of a document `levels` deep. */
function nestedArrays(levels: number): Document {
  let value: unknown = 1;
  for (let level = levels; level > 1; level--) value = [value];
  return { a: value };
}

/** How deep a document is, counted as mongod counts a stored one (empty ones do not count). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const inner = Object.values(value as Document).filter(
    (v) => typeof v === 'object' && v !== null && Object.keys(v).length > 0,
  );
  return 1 + Math.max(0, ...inner.map(depthOf));
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the write should have been refused'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(MongoServerError);
      return error as MongoServerError;
    },
  );

let embedded: EmbeddedClient;
let coll: Collection;

beforeAll(async () => {
  embedded = await startEmbeddedClient();
});
afterAll(() => embedded?.close());

let collections = 0;
beforeEach(() => {
  coll = embedded.client.db('depth').collection(`c${++collections}`);
});

describe('documents nested deeper than mongod stores', () => {
  it('stores a document 180 levels deep and refuses 181 with code 15 (Overflow), storing nothing', async () => {
    expect(depthOf(nested(STORED))).toBe(STORED);
    await coll.insertOne(nested(STORED, 'deepest', 'ok'));
    const stored = await coll.findOne({ _id: 'ok' as never });
    expect(depthOf(stored)).toBe(STORED);
    expect(JSON.stringify(stored)).toContain('"deepest"');

    const refused = await refusal(coll.insertOne(nested(STORED + 1, 1, 'deep')));
    expect(refused.code).toBe(15);
    expect(refused.message).toBe(
      `cannot insert document because it exceeds ${STORED} levels of nesting`,
    );
    expect(await coll.countDocuments({})).toBe(1);
  });

  it('stores the 150 and 100 levels the manual and the issue speak of', async () => {
    await coll.insertMany([nested(100), nested(101), nested(150)]);
    const depths = (await coll.find({}).toArray()).map(depthOf).sort((a, b) => a - b);
    expect(depths).toEqual([100, 101, 150]);
  });

  it('counts arrays as levels, and empty documents and arrays not at all', async () => {
    await refusal(coll.insertOne(nestedArrays(STORED + 1)));
    await coll.insertOne(nestedArrays(STORED));
    // An empty document or array one level past the limit adds no level, as in mongod.
    await coll.insertOne(nested(STORED, {}));
    await coll.insertOne(nested(STORED, []));
    expect(await coll.countDocuments({})).toBe(3);
  });

  it('refuses only the deep documents of an unordered insertMany', async () => {
    const error = await coll
      .insertMany([nested(3), nested(STORED + 1), nested(4)], { ordered: false })
      .catch((e: unknown) => e as MongoBulkWriteError);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    const { writeErrors } = error as MongoBulkWriteError;
    expect((Array.isArray(writeErrors) ? writeErrors : [writeErrors]).map((e) => e.index)).toEqual([
      1,
    ]);
    expect(await coll.countDocuments({})).toBe(2);
  });
});

describe('updates that would nest too deep', () => {
  it('refuses $set of a deep value and a deep replacement, leaving the document as it was', async () => {
    await coll.insertOne({ _id: 'doc' as never, n: 1 });
    // $set puts the value at level 2: a value 180 deep makes the document 181 deep.
    const set = await refusal(
      coll.updateOne({ _id: 'doc' as never }, { $set: { deep: nested(STORED) } }),
    );
    expect(set.code).toBe(15);
    expect(set.message).toBe(`Document exceeds maximum nesting depth of ${STORED}`);
    const replaced = await refusal(
      coll.replaceOne({ _id: 'doc' as never }, nested(STORED + 1, 'x')),
    );
    expect(replaced.code).toBe(15);
    const dotted = await refusal(
      coll.updateOne({ _id: 'doc' as never }, { $set: { 'x.y': nested(STORED - 1) } }),
    );
    expect(dotted.code).toBe(15);
    expect(await coll.findOne({ _id: 'doc' as never })).toEqual({ _id: 'doc', n: 1 });

    await coll.updateOne({ _id: 'doc' as never }, { $set: { deep: nested(STORED - 1) } });
    expect(depthOf(await coll.findOne({ _id: 'doc' as never }))).toBe(STORED);
  });

  it('refuses an upsert and a findOneAndUpdate that would store a too deep document', async () => {
    const upsert = await refusal(
      coll.updateOne({ _id: 'new' as never }, { $set: { deep: nested(STORED) } }, { upsert: true }),
    );
    expect(upsert.code).toBe(15);
    expect(await coll.countDocuments({})).toBe(0);

    await coll.insertOne({ _id: 'doc' as never });
    const viaFindAndModify = await refusal(
      coll.findOneAndUpdate({ _id: 'doc' as never }, { $set: { deep: nested(STORED) } }),
    );
    expect(viaFindAndModify.code).toBe(15);
    expect(await coll.findOne({ _id: 'doc' as never })).toEqual({ _id: 'doc' });
  });
});

describe('aggregation results deeper than BSON allows', () => {
  /** `$$ROOT` inside `wrappers` documents `{ a: ... }`, as the field `w` of the result. */
  const wrapRoot = (wrappers: number) => {
    let expression: unknown = '$$ROOT';
    for (let i = 0; i < wrappers; i++) expression = { a: expression };
    return [{ $project: { _id: 0, w: expression } }];
  };

  it('returns a result 200 levels deep and refuses 201 with 15 Overflow', async () => {
    await coll.insertOne(nested(STORED, 'leaf', 'root'));
    // The result is level 1, `w` level 2, each wrapper one more, then the stored document.
    const fits = BSON_LIMIT - STORED - 1;
    const [result] = await coll.aggregate(wrapRoot(fits)).toArray();
    expect(depthOf(result)).toBe(BSON_LIMIT);

    const refused = await refusal(coll.aggregate(wrapRoot(fits + 1)).toArray());
    expect(refused.code).toBe(15);
    expect(refused.codeName).toBe('Overflow');
    expect(refused.message).toBe(
      `cannot convert document to BSON because it exceeds the limit of ${BSON_LIMIT} levels of nesting`,
    );
  });
});
