import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Db, type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../src/db/embedded/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MESSAGES = 30_000;
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const newDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'index-build-test-'));
  dirs.push(dir);
  return dir;
};

const message = (n: number) => ({ n, text: `message ${n} ${n % 7 === 0 ? 'sevens' : 'plain'}` });

/** A data directory holding MESSAGES messages, written and closed. */
async function filledDir(): Promise<string> {
  const dir = await newDir();
  const server = await startEmbeddedMongo({ dataDir: dir });
  const client = await new MongoClient(server.uri).connect();
  const chat = client.db('app').collection('chat');
  for (let at = 0; at < MESSAGES; at += 5_000)
    await chat.insertMany(Array.from({ length: 5_000 }, (_, i) => message(at + i)));
  await client.close();
  await server.close();
  return dir;
}

/** Runs `run` against a server on a fresh filledDir(), closed after. */
async function onFilledDir(run: (db: Db) => Promise<void>): Promise<void> {
  const server = await startEmbeddedMongo({ dataDir: await filledDir() });
  const client = await new MongoClient(server.uri).connect();
  try {
    await run(client.db('app'));
  } finally {
    await client.close();
    await server.close();
  }
}

const builds = async (db: Db) =>
  ((await db.admin().command({ serverStatus: 1 })).indexBuilds.inProgress as Document[]).map(
    ({ index, done, total }) => ({ index, done, total }),
  );

async function waitForBuilds(db: Db): Promise<void> {
  while ((await builds(db)).length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
}

const sevens = (chat: ReturnType<Db['collection']>) =>
  chat
    .find({ text: { $regex: 'SEVENS', $options: 'i' } }, { projection: { _id: 0, n: 1 } })
    .sort({ n: 1 })
    .toArray();

const expectedSevens = (count: number) =>
  Array.from({ length: count }, (_, n) => n)
    .filter((n) => n % 7 === 0)
    .map((n) => ({ n }));

describe('indexes added to a collection that has documents', () => {
  it('are built in the background: createIndexes answers at once, reads stay correct throughout', async () => {
    await onFilledDir(async (db) => {
      const chat = db.collection('chat');
      // As the service asks at start-up: answer at once, build in the background.
      await db.command({
        createIndexes: 'chat',
        indexes: [
          { key: { text: 'trigram' }, name: 'text_trigram' },
          { key: { n: -1 }, name: 'n_desc' },
        ],
        buildInBackground: true,
      });
      const during = await builds(db);
      expect(during.map(({ index }) => index).sort()).toEqual(['n_desc', 'text_trigram']);
      expect(during.every(({ done, total }) => done < total && total === MESSAGES)).toBe(true);
      // Mid-build the planner scans: every answer is whole.
      const planned = await chat.find({ n: { $gte: 29_990 } }).explain();
      expect(JSON.stringify(planned.queryPlanner.winningPlan)).toContain('COLLSCAN');
      expect(await sevens(chat)).toEqual(expectedSevens(MESSAGES));
      // Writes during the build reach the index too.
      await chat.insertOne(message(MESSAGES));
      await chat.deleteOne({ n: 0 });
      await chat.updateOne({ n: 7 }, { $set: { text: 'message 7 changed' } });
      await waitForBuilds(db);
      const built = await chat.find({ n: { $gte: 29_990 } }).explain();
      expect(JSON.stringify(built.queryPlanner.winningPlan)).toContain('n_desc');
      const expected = expectedSevens(MESSAGES + 1).filter(({ n }) => n !== 0 && n !== 7);
      expect(await sevens(chat)).toEqual(expected);
      expect(await chat.countDocuments({ n: { $gte: 29_990 } }, { hint: 'n_desc' })).toBe(11);
    });
  });

  it('a document changed before the build reaches it is found by its old words and its new', async () => {
    await onFilledDir(async (db) => {
      const chat = db.collection('chat');
      await db.command({
        createIndexes: 'chat',
        indexes: [{ key: { text: 'trigram' }, name: 'text_trigram' }],
        buildInBackground: true,
      });
      expect((await builds(db)).length).toBe(1);
      await chat.updateOne({ n: 29_998 }, { $set: { text: 'zebra message 29998 plain' } });
      await waitForBuilds(db);
      for (const term of ['29998', 'zebra'])
        expect(
          await chat.find({ text: { $regex: term } }, { projection: { _id: 0, n: 1 } }).toArray(),
        ).toEqual([{ n: 29_998 }]);
    });
  });

  it('a unique index is complete when createIndexes answers, and refuses duplicates as before', async () => {
    await onFilledDir(async (db) => {
      const chat = db.collection('chat');
      await chat.createIndex({ n: 1 }, { unique: true, name: 'n_unique' });
      expect(await builds(db)).toEqual([]);
      await expect(chat.insertOne(message(5))).rejects.toMatchObject({ code: 11000 });
      await expect(chat.createIndex({ text: 1 }, { unique: true })).resolves.toBe('text_1');
      await expect(chat.insertOne({ n: -1, text: 'message 3 plain' })).rejects.toMatchObject({
        code: 11000,
      });
      await expect(chat.createIndex({ n2: 1, missing: 1 }, { unique: true })).rejects.toMatchObject(
        { code: 11000 },
      );
    });
  });

  it('createIndexes answers once its index is built, serving other commands meanwhile', async () => {
    await onFilledDir(async (db) => {
      const chat = db.collection('chat');
      let built = false;
      const creating = chat
        .createIndex({ text: 'trigram' } as unknown as Document, { name: 'text_trigram' })
        .then(() => {
          built = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await chat.findOne({ n: 123 }))?.text).toBe('message 123 plain');
      expect(built).toBe(false);
      await creating;
      expect(await builds(db)).toEqual([]);
      const plan = await chat.find({ text: { $regex: 'sevens' } }).explain();
      expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('text_trigram');
    });
  });

  it('an index a stored document cannot go in is dropped when the build reaches it', async () => {
    await onFilledDir(async (db) => {
      const chat = db.collection('chat');
      await chat.insertOne({ n: -2, a: [1, 2], b: [3, 4] });
      await expect(chat.createIndex({ a: 1, b: 1 }, { name: 'parallel' })).rejects.toMatchObject({
        codeName: 'CannotIndexParallelArrays',
      });
      const names = (await chat.listIndexes().toArray()).map(({ name }) => name);
      expect(names).toEqual(['_id_']);
      expect(await chat.countDocuments({ a: 2 })).toBe(1);
    });
  });

  it('a build cut short by SIGKILL resumes where it was at the next start, losing nothing', async () => {
    const dir = await filledDir();
    // Starts the server, creates the index, and prints how far the build is every few ms.
    const builder = `
      import { MongoClient } from 'mongodb';
      import { startEmbeddedMongo } from './src/db/embedded/index.ts';
      const server = await startEmbeddedMongo({ dataDir: process.argv[1] });
      const client = await new MongoClient(server.uri).connect();
      const db = client.db('app');
      await db.command({
        createIndexes: 'chat',
        indexes: [{ key: { text: 'trigram' }, name: 'text_trigram' }],
        buildInBackground: true,
      });
      process.stdout.write('uri ' + server.uri + '\\n');
      for (;;) {
        const [build] = (await db.admin().command({ serverStatus: 1 })).indexBuilds.inProgress;
        process.stdout.write('done ' + (build ? build.done : -1) + '\\n');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', builder, dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    let killedAt = 0;
    let writer: MongoClient | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      const [word, value] = line.split(' ') as [string, string];
      if (word === 'uri') {
        // A write while the build runs, acknowledged before the kill.
        writer = await new MongoClient(value).connect();
        await writer
          .db('app')
          .collection('chat')
          .insertOne({ n: -1, text: 'written during the build, sevens' });
        continue;
      }
      const done = Number(value);
      expect(done).not.toBe(-1);
      if (writer && done > 2_000) {
        killedAt = done;
        child.kill('SIGKILL');
        break;
      }
    }
    await exited;
    await writer?.close().catch(() => undefined);
    expect(killedAt).toBeGreaterThan(0);

    const server = await startEmbeddedMongo({ dataDir: dir });
    const client = await new MongoClient(server.uri).connect();
    try {
      const db = client.db('app');
      const [resumed] = await builds(db);
      expect(resumed?.index).toBe('text_trigram');
      expect(resumed?.done).toBeGreaterThanOrEqual(killedAt);
      expect(await sevens(db.collection('chat'))).toEqual([{ n: -1 }, ...expectedSevens(MESSAGES)]);
      await waitForBuilds(db);
      const plan = await db
        .collection('chat')
        .find({ text: { $regex: 'sevens', $options: 'i' } })
        .explain();
      expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('text_trigram');
      expect(await sevens(db.collection('chat'))).toEqual([{ n: -1 }, ...expectedSevens(MESSAGES)]);
    } finally {
      await client.close();
      await server.close();
    }
  }, 120_000);
});
