import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../src/db/embedded/index.js';
import { foldCase } from '../../src/db/embedded/regex.js';
import { startServiceDatabase } from '../../src/db/embedded/service-database.js';
import { silentLogger } from '../../src/db/embedded/types.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'isolation-test-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe("the service's embedded database", () => {
  it('runs in a worker thread on a Unix socket, with its directory and files private', async () => {
    const dataDir = await tempDir();
    const database = await startServiceDatabase(dataDir, silentLogger);
    try {
      const dbDir = join(dataDir, 'db');
      expect(await mode(dbDir)).toBe(0o700);
      for (const file of [
        'mongod.sock',
        'endpoint.json',
        'data.mdb',
        'data.mdb-lock',
        'mongod.lock',
      ])
        expect({ file, mode: await mode(join(dbDir, file)) }).toEqual({ file, mode: 0o600 });
      const endpoint = JSON.parse(await readFile(join(dbDir, 'endpoint.json'), 'utf8'));
      expect(endpoint.uri).toBe(database.uri);
      expect(database.uri).toContain(encodeURIComponent(join(dbDir, 'mongod.sock')));

      const client = await new MongoClient(database.uri).connect();
      const messages = client.db('app').collection('chat');
      await messages.insertMany(
        Array.from({ length: 1000 }, (_, i) => ({ text: `${'a'.repeat(40)}${i}` })),
      );
      // While the worker scans, this thread keeps turning its event loop.
      let turns = 0;
      const ticker = setInterval(() => turns++, 1);
      const search = messages.countDocuments({ text: { $regex: '^(a+)+b' } });
      expect(await search).toBe(0);
      clearInterval(ticker);
      expect(turns).toBeGreaterThan(0);
      await client.close();
    } finally {
      await database.close();
    }
    await expect(stat(join(dataDir, 'db', 'endpoint.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('time limits', () => {
  it('stops a scan at maxTimeMS with MaxTimeMSExpired (50)', async () => {
    const server = await startEmbeddedMongo({ dataDir: null });
    const client = await new MongoClient(server.uri).connect();
    try {
      const docs = client.db('app').collection('slow');
      await docs.createIndex({ n: 1 });
      await docs.insertMany(
        Array.from({ length: 20_000 }, (_, n) => ({ n, text: `${'a'.repeat(30)}${n}` })),
      );
      const slow = { text: { $regex: '^(a+)+b', $options: 'i' } };
      const refusal = (promise: Promise<unknown>) =>
        promise.then(
          () => undefined,
          (error: MongoServerError) => ({ code: error.code, codeName: error.codeName }),
        );
      const expired = { code: 50, codeName: 'MaxTimeMSExpired' };
      expect(await refusal(docs.find(slow).maxTimeMS(1).toArray())).toEqual(expired);
      expect(await refusal(docs.countDocuments(slow, { maxTimeMS: 1 }))).toEqual(expired);
      expect(await refusal(docs.aggregate([{ $match: slow }], { maxTimeMS: 1 }).toArray())).toEqual(
        expired,
      );
      expect(
        await refusal(docs.updateMany(slow, { $set: { seen: true } }, { maxTimeMS: 1 })),
      ).toMatchObject({ code: 50 });
      // Without a limit the same regex completes: it runs in linear time.
      expect(await docs.countDocuments({ ...slow, n: { $lt: 20 } })).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('folds case into character classes, so case-insensitive regexes stay linear', () => {
    expect(foldCase('^ab[c-e]\\d\\x4a(?<Name>x)')).toBe('^[aA][bB][c-eC-E]\\d\\x4a(?<Name>[xX])');
    expect(new RegExp(foldCase('^héllo wörld$')).test('HÉLLO WÖRLD')).toBe(true);
  });

  it('refuses backreferences and lookarounds, which only a backtracking engine runs', async () => {
    const server = await startEmbeddedMongo({ dataDir: null });
    const client = await new MongoClient(server.uri).connect();
    try {
      const docs = client.db('app').collection('regex');
      await docs.insertOne({ text: 'aa' });
      await expect(docs.findOne({ text: /(a)\1/ })).rejects.toMatchObject({ code: 2 });
      await expect(docs.findOne({ text: /a(?=a)/ })).rejects.toMatchObject({ code: 2 });
      expect(await docs.countDocuments({ text: /^A/i })).toBe(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('access control over TCP', () => {
  it('requires the generated SCRAM-SHA-256 credentials', async () => {
    const dataDir = await tempDir();
    const endpointFile = join(dataDir, 'endpoint.json');
    const server = await startEmbeddedMongo({ dataDir, authenticate: true, endpointFile });
    try {
      expect(await mode(join(dataDir, 'credentials.json'))).toBe(0o600);
      expect(await mode(endpointFile)).toBe(0o600);
      const { uri } = JSON.parse(await readFile(endpointFile, 'utf8'));
      expect(uri).toBe(server.uri);
      expect(uri).toMatch(/^mongodb:\/\/gateway:[^@]+@127\.0\.0\.1:\d+\//);

      const anonymous = await new MongoClient(
        `mongodb://127.0.0.1:${server.port}/?directConnection=true`,
      ).connect();
      await expect(
        anonymous.db('app').collection('api-tokens').insertOne({ hash: 'forged' }),
      ).rejects.toMatchObject({ code: 13, codeName: 'Unauthorized' });
      await expect(anonymous.db('app').collection('api-tokens').findOne()).rejects.toMatchObject({
        code: 13,
      });
      await anonymous.close();

      const wrong = new MongoClient(uri.replace(/gateway:[^@]+@/, 'gateway:wrong@'));
      await expect(wrong.connect()).rejects.toMatchObject({ code: 18 });
      await wrong.close();

      const client = await new MongoClient(uri).connect();
      await client.db('app').collection('notes').insertOne({ text: 'hello' });
      expect(await client.db('app').collection('notes').countDocuments()).toBe(1);
      await client.close();
    } finally {
      await server.close();
    }
    // The same credentials on the next start.
    const again = await startEmbeddedMongo({ dataDir, authenticate: true });
    try {
      const client = await new MongoClient(again.uri).connect();
      expect(await client.db('app').collection('notes').countDocuments()).toBe(1);
      await client.close();
    } finally {
      await again.close();
    }
  });
});
