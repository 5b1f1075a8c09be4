import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Document, MongoClient, type MongoServerError, ObjectId } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';
import { parseIndexSpec } from '../../src/db/embedded/index-spec.js';
import { Store } from '../../src/db/embedded/store.js';
import { encodeReply, MessageFramer, parseMessage } from '../../src/db/embedded/wire.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];

interface Running {
  server: EmbeddedMongo;
  client: MongoClient;
}
const running = new Set<Running>();

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'embedded-test-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string | null): Promise<Running> {
  const server = await startEmbeddedMongo({ dataDir });
  const pair = { server, client: await new MongoClient(server.uri).connect() };
  running.add(pair);
  return pair;
}

async function stop(pair: Running): Promise<void> {
  running.delete(pair);
  await pair.client.close();
  await pair.server.close();
}

/** Runs TypeScript in a child process, from the repository root. */
function child(code: string, args: string[] = []): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '-e', code, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function firstLine(
  stream: NodeJS.ReadableStream,
  matches: (line: string) => boolean,
): Promise<string> {
  for await (const line of createInterface({ input: stream })) if (matches(line)) return line;
  throw new Error('stream ended first');
}

afterEach(async () => {
  await Promise.all([...running].map(stop));
});

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('persistence', () => {
  it('keeps data, indexes and databases across a clean restart', async () => {
    const dir = await tempDir();
    const first = await start(dir);
    const items = first.client.db('app').collection('items');
    await items.createIndex({ code: 1 }, { unique: true, name: 'code_unique' });
    await items.insertMany([
      { code: 'a', n: 1 },
      { code: 'b', n: 2 },
      { code: 'c', n: 3 },
    ]);
    await items.updateOne({ code: 'a' }, { $inc: { n: 10 } });
    await items.deleteOne({ code: 'b' });
    await first.client.db('other').createCollection('empty');
    await stop(first);

    const second = await start(dir);
    const again = second.client.db('app').collection('items');
    expect(
      await again
        .find({}, { projection: { _id: 0 } })
        .sort({ code: 1 })
        .toArray(),
    ).toEqual([
      { code: 'a', n: 11 },
      { code: 'c', n: 3 },
    ]);
    expect((await again.listIndexes().toArray()).map((ix) => ix.name)).toEqual([
      '_id_',
      'code_unique',
    ]);
    await expect(again.insertOne({ code: 'c' })).rejects.toMatchObject({ code: 11000 });
    expect(await second.client.db('other').listCollections().toArray()).toMatchObject([
      { name: 'empty' },
    ]);
    expect((await readdir(dir)).sort()).toEqual(['data.mdb', 'data.mdb-lock', 'mongod.lock']);
  });

  it('expires documents through a TTL index', async () => {
    const store = new Store(await tempDir());
    const now = Date.now();
    store.write(() => {
      const coll = store.ensureCollection('app', 'limits');
      coll.createIndex(parseIndexSpec({ key: { expires: 1 }, name: 'ttl', expireAfterSeconds: 0 }));
      coll.insert({ _id: 1, expires: new Date(now - 1000) });
      coll.insert({ _id: 2, expires: new Date(now + 60_000) });
      coll.insert({ _id: 3 });
    });
    expect(store.write(() => store.expire(now))).toBe(1);
    expect([...(store.collection('app', 'limits')?.scan() ?? [])].map((doc) => doc._id)).toEqual([
      2, 3,
    ]);
    await store.close();
  });
});

describe('wire framing', () => {
  it('reassembles messages however the bytes arrive', () => {
    const request = { requestId: 7, legacy: false, moreToCome: false, db: 'app', command: {} };
    const first = encodeReply(request, 1, { ping: 1, $db: 'app' });
    const second = encodeReply(request, 2, { hello: 1, text: 'x'.repeat(3000), $db: 'other' });
    const bytes = Buffer.concat([first, second]);
    const framer = new MessageFramer();
    const messages = [...bytes].flatMap((byte) => framer.push(Buffer.from([byte])));
    expect(messages.map((message) => parseMessage(message))).toMatchObject([
      { requestId: 1, db: 'app', command: { ping: 1 } },
      { requestId: 2, db: 'other', command: { hello: 1 } },
    ]);
    expect(new MessageFramer().push(bytes)).toHaveLength(2);
  });
});

describe('data directory lock', () => {
  it('refuses a second server on the same directory, in this process or another', async () => {
    const dir = await tempDir();
    await start(dir);
    await expect(startEmbeddedMongo({ dataDir: dir })).rejects.toThrow(
      /in use by process \d+ \(this process\)/,
    );

    const other = child(
      `import('./src/db/embedded/index.ts').then((m) => m.startEmbeddedMongo({ dataDir: process.argv[1] }))
        .then(() => process.exit(0), (error) => { console.error(error.message); process.exit(3); });`,
      [dir],
    );
    const stderr = firstLine(other.stderr as NodeJS.ReadableStream, (line) =>
      line.includes('in use'),
    );
    const [code] = await once(other, 'exit');
    expect(code).toBe(3);
    expect(await stderr).toContain(`is in use by process ${process.pid}`);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = await tempDir();
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    await writeFile(join(dir, 'mongod.lock'), `${gone.pid}\n`);
    const { client } = await start(dir);
    await client.db('app').collection('x').insertOne({ ok: true });
    expect(await readFile(join(dir, 'mongod.lock'), 'utf8')).toBe(`${process.pid}\n`);
  });
});

describe('query planning', () => {
  it('answers equality on an indexed field, $in and _id without scanning; sorts by index', async () => {
    const { client } = await start(null);
    const c = client.db('app').collection('planned');
    await c.createIndex({ code: 1 }, { unique: true });
    await c.createIndex({ type: 1, for: 1 });
    await c.createIndex(
      { hash: 1 },
      { unique: true, partialFilterExpression: { hash: { $exists: true } } },
    );
    await c.createIndex({ when: -1 });
    const ids = Array.from({ length: 1000 }, () => new ObjectId());
    await c.insertMany(
      ids.map((_id, i) => ({
        _id,
        code: `c${i}`,
        type: `t${i % 10}`,
        for: `f${i}`,
        n: i,
        when: new Date(i * 1000),
        ...(i % 2 ? { hash: `h${i}` } : {}),
      })),
    );
    const stats = async (filter: Document, sort?: Document, limit?: number) => {
      const plan = await c
        .find(filter, { ...(sort && { sort }), ...(limit && { limit }) })
        .explain('executionStats');
      const { winningPlan } = plan.queryPlanner;
      return {
        index: winningPlan.inputStage?.indexName ?? winningPlan.stage,
        examined: plan.executionStats.totalDocsExamined,
      };
    };
    expect(await stats({ code: 'c500' })).toEqual({ index: 'code_1', examined: 1 });
    expect(await stats({ code: { $in: ['c1', 'c2', 'nope'] } })).toEqual({
      index: 'code_1',
      examined: 2,
    });
    expect(await stats({ _id: ids[7] })).toEqual({ index: '_id_', examined: 1 });
    expect(await stats({ type: 't3', for: 'f3', n: { $gt: 0 } })).toEqual({
      index: 'type_1_for_1',
      examined: 1,
    });
    expect(await stats({ hash: 'h5' })).toEqual({ index: 'hash_1', examined: 1 });
    expect(await stats({ when: { $lt: new Date(500_000) } }, { when: -1 }, 5)).toEqual({
      index: 'when_-1',
      examined: 5,
    });
    expect(await stats({}, { when: 1 }, 5)).toEqual({ index: 'when_-1', examined: 5 });
    expect(await stats({ n: 5 })).toEqual({ index: 'COLLSCAN', examined: 1000 });
  });
});

describe('unsupported features', () => {
  it('answers with a clear error rather than a different result', async () => {
    const { client } = await start(null);
    const c = client.db('app').collection('refused');
    await c.insertOne({ name: 'a' });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: MongoServerError) => error,
      );
    expect(await refusal(c.find({ $where: 'this.name == "a"' }).toArray())).toMatchObject({
      code: 238,
      codeName: 'NotImplemented',
    });
    expect(
      await refusal(c.find({ name: 'A' }, { collation: { locale: 'en', strength: 2 } }).toArray()),
    ).toMatchObject({ code: 238 });
    expect(await refusal(c.find({ _id: { $type: 'objectId' } }).toArray())).toMatchObject({
      code: 238,
    });
    expect(await c.countDocuments({ name: { $type: 'string' } })).toBe(1);
    expect(await refusal(c.aggregate([{ $out: 'copy' }]).toArray())).toMatchObject({ code: 40324 });
    expect(await refusal(c.createIndex({ name: 'text' }))).toMatchObject({ code: 238 });
    expect(await refusal(c.updateOne({}, { $rename: { name: 'label' } }))).toMatchObject({
      code: 238,
    });
    // Change streams exist on collections (test/db/change-streams.test.ts), not beyond them.
    for (const stream of [
      c.watch([], { fullDocumentBeforeChange: 'required' }),
      c.watch([{ $project: { fullDocument: 1 } }]),
      c.watch([], { showExpandedEvents: true }),
    ]) {
      expect(await refusal(stream.tryNext())).toMatchObject({ code: 238 });
      await stream.close();
    }
    expect(await c.countDocuments({ name: 'a' })).toBe(1);
  });
});

describe('db command', () => {
  const runDb = (dataDir: string) =>
    child(
      `import('./src/commands/db.ts').then((m) => m.dbCommand(['--port', '0', '--data-dir', process.argv[1]]))`,
      [dataDir],
    );

  /** The connection string the server leaves in its data directory once it listens. */
  async function uriOf(server: ChildProcess, dataDir: string): Promise<string> {
    await firstLine(server.stdout as NodeJS.ReadableStream, (text) =>
      text.includes('embedded database listening'),
    );
    return JSON.parse(await readFile(join(dataDir, 'endpoint.json'), 'utf8')).uri as string;
  }

  it('exports the data directory in the mongodump layout and imports it into another', async () => {
    const [from, to, out] = [await tempDir(), await tempDir(), await tempDir()];
    const seeded = await start(join(from, 'db'));
    await seeded.client.db('aesthetic').collection('kidlisp').insertOne({ code: 'abc' });
    await stop(seeded);
    const run = async (dataDir: string, args: string[]) => {
      const cli = child(
        `process.env.DATA_DIR = process.argv[1];
         import('./src/commands/db.ts').then((m) => m.dbCommand(process.argv.slice(2)));`,
        [dataDir, ...args],
      );
      const line = await firstLine(cli.stdout as NodeJS.ReadableStream, () => true);
      expect(await once(cli, 'exit')).toEqual([0, null]);
      return JSON.parse(line);
    };
    expect(await run(from, ['export', '--out', out])).toMatchObject({
      collections: 1,
      documents: 1,
    });
    expect(await run(to, ['import', out])).toMatchObject({ collections: 1, documents: 1 });
    const copy = await start(join(to, 'db'));
    expect(
      await copy.client
        .db('aesthetic')
        .collection('kidlisp')
        .findOne({}, { projection: { _id: 0 } }),
    ).toEqual({ code: 'abc' });
  });

  it('prints its usage with --help', async () => {
    const help = child(`import('./src/commands/db.ts').then((m) => m.dbCommand(['--help']))`);
    const exited = once(help, 'exit');
    expect(await firstLine(help.stdout as NodeJS.ReadableStream, () => true)).toMatch(
      /^Usage: publish-gateway db /,
    );
    expect(await exited).toEqual([0, null]);
  });

  it('serves the official driver from a separate process and persists on SIGTERM', async () => {
    const dir = await tempDir();
    const server = runDb(dir);
    try {
      const uri = await uriOf(server, dir);
      const writer = await new MongoClient(uri).connect();
      const reader = await new MongoClient(uri).connect();
      await writer.db('app').collection('notes').insertOne({ text: 'hello' });
      expect(
        await reader
          .db('app')
          .collection('notes')
          .findOne({}, { projection: { _id: 0 } }),
      ).toEqual({ text: 'hello' });
      await Promise.all([writer.close(), reader.close()]);
      server.kill('SIGTERM');
      expect(await once(server, 'exit')).toEqual([0, null]);
    } finally {
      server.kill('SIGKILL');
    }

    const restarted = runDb(dir);
    try {
      const client = await new MongoClient(await uriOf(restarted, dir)).connect();
      expect(await client.db('app').collection('notes').countDocuments({ text: 'hello' })).toBe(1);
      await client.close();
      restarted.kill('SIGINT');
      expect(await once(restarted, 'exit')).toEqual([0, null]);
    } finally {
      restarted.kill('SIGKILL');
    }
  });
});
