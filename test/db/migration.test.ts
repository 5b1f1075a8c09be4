import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { EJSON } from 'bson';
import { open } from 'lmdb';
import { BSON, type Document, Int32, Long, MongoClient, ObjectId, UUID } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { exportDump, importDump, readBsonFile } from '../../src/db/dump.js';
import { startEmbeddedMongo } from '../../src/db/embedded/index.js';
import { encodeValue } from '../../src/db/embedded/keys.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migration-test-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** One record of the earlier versions' files: length, CRC-32 of the body, the body as BSON. */
function record(body: Document): Buffer {
  const bytes = BSON.serialize(body);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(bytes.length, 0);
  head.writeUInt32LE(crc32(bytes), 4);
  return Buffer.concat([head, bytes]);
}

describe('a data directory of an earlier version', () => {
  it('is converted on first start, the old files kept as a dated backup', async () => {
    const dir = await tempDir();
    const id = new ObjectId();
    const spec = { v: 2, key: { code: 1 }, name: 'code_unique', unique: true };
    await writeFile(
      join(dir, 'snapshot.bson'),
      Buffer.concat([
        record({ generation: 3 }),
        record({ op: 'createColl', db: 'app', coll: 'kidlisp' }),
        record({ op: 'createIndex', db: 'app', coll: 'kidlisp', spec }),
        record({ op: 'put', db: 'app', coll: 'kidlisp', doc: { _id: id, code: 'abc', hits: 1 } }),
        record({ op: 'put', db: 'app', coll: 'kidlisp', doc: { _id: 2, code: 'gone' } }),
      ]),
    );
    await writeFile(
      join(dir, 'journal-3.log'),
      Buffer.concat([
        record({ op: 'put', db: 'app', coll: 'kidlisp', doc: { _id: id, code: 'abc', hits: 5 } }),
        record({ op: 'del', db: 'app', coll: 'kidlisp', id: 2 }),
        record({ op: 'put', db: 'app', coll: 'chat-system', doc: { _id: 1, text: 'hi' } }),
        Buffer.from([40, 0, 0, 0, 1, 2]), // a record torn by a crash
      ]),
    );
    const logged: Array<[object, string | undefined]> = [];
    const logger = {
      info: (obj: object, msg?: string) => logged.push([obj, msg]),
      warn: () => {},
      error: () => {},
    };
    const server = await startEmbeddedMongo({ dataDir: dir, logger });
    const client = await new MongoClient(server.uri).connect();
    try {
      const app = client.db('app');
      expect(await app.collection('kidlisp').find().toArray()).toEqual([
        { _id: id, code: 'abc', hits: 5 },
      ]);
      expect(await app.collection('chat-system').findOne()).toEqual({ _id: 1, text: 'hi' });
      expect((await app.collection('kidlisp').listIndexes().toArray()).map((i) => i.name)).toEqual([
        '_id_',
        'code_unique',
      ]);
      await expect(app.collection('kidlisp').insertOne({ code: 'abc' })).rejects.toMatchObject({
        code: 11000,
      });
    } finally {
      await client.close();
      await server.close();
    }
    const names = await readdir(dir);
    const backup = names.find((name) => name.startsWith('old-format-')) as string;
    expect(backup).toMatch(/^old-format-\d{4}-\d\d-\d\dT/);
    expect((await readdir(join(dir, backup))).sort()).toEqual(['journal-3.log', 'snapshot.bson']);
    expect(names).not.toContain('snapshot.bson');
    expect(logged.filter(([, msg]) => msg?.includes('converted'))).toHaveLength(1);
  });
});

/** A data file in the first LMDB layout: every collection in `docs`, every index in `entries`. */
async function writeSharedTables(dir: string, docs: Document[]): Promise<void> {
  const env = open({
    path: join(dir, 'data.mdb'),
    maxDbs: 8,
    noSync: true,
    keyEncoding: 'binary',
    encoding: 'binary',
  });
  const table = (name: string) => env.openDB({ name, keyEncoding: 'binary', encoding: 'binary' });
  const number = (n: number) => Buffer.from([0, 0, 0, n]);
  const spec = { v: 2, key: { code: 1 }, name: 'code_unique', unique: true };
  env.transactionSync(() => {
    table('catalog').putSync(
      Buffer.from('app.kidlisp'),
      BSON.serialize({
        db: 'app',
        name: 'kidlisp',
        prefix: 1,
        uuid: new UUID(),
        indexes: [{ spec, prefix: 2, multikey: false }],
      }),
    );
    for (const doc of docs) {
      const idKey = encodeValue(doc._id);
      table('docs').putSync(Buffer.concat([number(1), idKey]), BSON.serialize(doc));
      table('entries').putSync(
        Buffer.concat([number(2), encodeValue(doc.code), idKey]),
        Buffer.alloc(0),
      );
    }
    table('changes');
  });
  await env.close();
}

describe('a data file of the first LMDB layout', () => {
  it('is moved into a table per collection and per index on first start, once', async () => {
    const dir = await tempDir();
    const docs = Array.from({ length: 300 }, (_, i) => ({
      _id: `id-${String(i).padStart(3, '0')}`,
      code: `c${i}`,
      n: i,
    }));
    await writeSharedTables(dir, docs);
    const logged: string[] = [];
    const logger = {
      info: (_: object, msg?: string) => logged.push(msg ?? ''),
      warn: () => {},
      error: () => {},
    };
    for (const start of [1, 2]) {
      const server = await startEmbeddedMongo({ dataDir: dir, logger });
      const client = await new MongoClient(server.uri).connect();
      try {
        const kidlisp = client.db('app').collection('kidlisp');
        expect(await kidlisp.countDocuments()).toBe(start === 1 ? 300 : 301);
        expect(
          await kidlisp.find({ n: { $gte: 0 } }, { sort: { _id: -1 }, limit: 2 }).toArray(),
        ).toEqual(docs.slice(-2).reverse());
        const plan = await kidlisp.find({ code: 'c42' }).explain('executionStats');
        expect(plan.queryPlanner.winningPlan.inputStage.indexName).toBe('code_unique');
        expect(plan.executionStats.totalKeysExamined).toBe(1);
        expect(await kidlisp.findOne({ code: 'c42' })).toEqual(docs[42]);
        await expect(kidlisp.insertOne({ code: 'c7' })).rejects.toMatchObject({ code: 11000 });
        if (start === 1) await kidlisp.insertOne({ code: 'new' });
        expect(await kidlisp.countDocuments({ code: 'new' })).toBe(1);
      } finally {
        await client.close();
        await server.close();
      }
    }
    expect(logged.filter((msg) => msg.includes('tables of its own'))).toHaveLength(1);
  });
});

describe('export and import in the mongodump layout', () => {
  it('writes <db>/<collection>.bson and .metadata.json and loads them back, indexes included', async () => {
    const source = await startEmbeddedMongo({ dataDir: null });
    const target = await startEmbeddedMongo({ dataDir: null });
    const from = await new MongoClient(source.uri).connect();
    const to = await new MongoClient(target.uri).connect();
    const out = await tempDir();
    try {
      const app = from.db('aesthetic');
      const docs: Document[] = [
        {
          _id: new ObjectId(),
          code: 'a',
          n: new Int32(1),
          big: Long.fromString('9007199254740993'),
        },
        { _id: new ObjectId(), code: 'b', when: new Date(0), tags: ['x', 'y'], nested: { k: 1.5 } },
      ];
      await app.collection('kidlisp').insertMany(docs);
      await app
        .collection('kidlisp')
        .createIndex({ code: 1 }, { unique: true, name: 'code_unique' });
      await app
        .collection('pieces')
        .createIndex(
          { hash: 1 },
          { unique: true, partialFilterExpression: { hash: { $exists: true } }, name: 'hash_p' },
        );
      await app
        .collection('chat-system')
        .createIndex({ when: -1, _id: -1 }, { name: 'chat_when_id' });
      await app.collection('rate-limits').createIndex({ expires: 1 }, { expireAfterSeconds: 0 });
      await app
        .collection('chat-system')
        .insertOne({ _id: new ObjectId(), text: 'hi', when: new Date(5) });

      expect(await exportDump(from, out)).toEqual({ collections: 4, documents: 3 });

      // The documented layout: concatenated BSON, metadata with indexes, uuid and name.
      expect((await readdir(join(out, 'aesthetic'))).sort()).toEqual([
        'chat-system.bson',
        'chat-system.metadata.json',
        'kidlisp.bson',
        'kidlisp.metadata.json',
        'pieces.bson',
        'pieces.metadata.json',
        'rate-limits.bson',
        'rate-limits.metadata.json',
      ]);
      const bytes = await readFile(join(out, 'aesthetic', 'kidlisp.bson'));
      expect(bytes.length).toBe(docs.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0));
      expect([...readBsonFile(bytes)].map((doc) => doc.code)).toEqual(['a', 'b']);
      const metadata = EJSON.parse(
        await readFile(join(out, 'aesthetic', 'kidlisp.metadata.json'), 'utf8'),
      );
      expect(metadata).toMatchObject({
        collectionName: 'kidlisp',
        indexes: [
          { key: { _id: 1 }, name: '_id_' },
          { key: { code: 1 }, name: 'code_unique', unique: true },
        ],
      });
      expect(metadata.uuid).toMatch(/^[0-9a-f]{32}$/);

      expect(await importDump(to, out)).toEqual({ collections: 4, documents: 3, skipped: 0 });
      const copy = to.db('aesthetic');
      const raw = await copy.collection('kidlisp').find({}, { promoteValues: false }).toArray();
      expect(raw.map((doc) => EJSON.stringify(doc, { relaxed: false }))).toEqual(
        docs.map((doc) => EJSON.stringify(doc, { relaxed: false })),
      );
      for (const name of ['kidlisp', 'pieces', 'chat-system', 'rate-limits']) {
        const strip = (list: Document[]) => list.map(({ ns: _ns, ...index }) => index);
        expect(strip(await copy.collection(name).listIndexes().toArray())).toEqual(
          strip(await app.collection(name).listIndexes().toArray()),
        );
      }
      // Loading again skips what is there, as mongorestore does.
      expect(await importDump(to, out)).toEqual({ collections: 4, documents: 0, skipped: 3 });
    } finally {
      await Promise.all([from.close(), to.close()]);
      await Promise.all([source.close(), target.close()]);
    }
  });
});
