import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../src/db/embedded/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ACKNOWLEDGED = 300;
const PAYLOAD = 'x'.repeat(2000);

// Starts the embedded server on the directory and inserts one document at a time through the
// driver, printing the count each time an insert is acknowledged.
const writer = `
  import { MongoClient } from 'mongodb';
  import { startEmbeddedMongo } from './src/db/embedded/index.ts';
  const server = await startEmbeddedMongo({ dataDir: process.argv[1] });
  const docs = (await new MongoClient(server.uri).connect()).db('durable').collection('docs');
  for (let i = 0; ; i++) {
    await docs.insertOne({ i, payload: ${JSON.stringify(PAYLOAD)} });
    process.stdout.write(i + 1 + '\\n');
  }
`;

// Inserts batches of BATCH documents with one insertMany each, printing each acknowledged batch.
const BATCH = 2000;
const batchWriter = `
  import { MongoClient } from 'mongodb';
  import { startEmbeddedMongo } from './src/db/embedded/index.ts';
  const server = await startEmbeddedMongo({ dataDir: process.argv[1] });
  const docs = (await new MongoClient(server.uri).connect()).db('durable').collection('batches');
  for (let batch = 0; ; batch++) {
    await docs.insertMany(Array.from({ length: ${BATCH} }, (_, i) => ({ batch, i, pad: 'y'.repeat(500) })));
    process.stdout.write(batch + 1 + '\\n');
  }
`;

let dir: string;
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

it('keeps every acknowledged insert when the process is killed with SIGKILL', async () => {
  dir = await mkdtemp(join(tmpdir(), 'durability-test-'));
  dirs.push(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', writer, dir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  let acknowledged = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    acknowledged = Number(line);
    if (acknowledged >= ACKNOWLEDGED) {
      child.kill('SIGKILL');
      break;
    }
  }
  expect(await exited).toEqual([null, 'SIGKILL']);
  expect(acknowledged).toBe(ACKNOWLEDGED);

  const server = await startEmbeddedMongo({ dataDir: dir });
  const client = await new MongoClient(server.uri).connect();
  try {
    const found = await client.db('durable').collection('docs').find().sort({ i: 1 }).toArray();
    expect(found.length).toBeGreaterThanOrEqual(ACKNOWLEDGED);
    expect(found.map((doc) => doc.i)).toEqual(Array.from({ length: found.length }, (_, i) => i));
    expect(found.every((doc) => doc.payload === PAYLOAD)).toBe(true);
  } finally {
    await client.close();
    await server.close();
  }
});

it('keeps all or none of a multi-document insert cut short by SIGKILL', async () => {
  const batchDir = await mkdtemp(join(tmpdir(), 'durability-test-'));
  dirs.push(batchDir);
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', batchWriter, batchDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  let acknowledged = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    acknowledged = Number(line);
    // Killed while the next batch is being written (the writer never pauses between batches).
    if (acknowledged >= 3) {
      child.kill('SIGKILL');
      break;
    }
  }
  expect(await exited).toEqual([null, 'SIGKILL']);

  const server = await startEmbeddedMongo({ dataDir: batchDir });
  const client = await new MongoClient(server.uri).connect();
  try {
    const batches = client.db('durable').collection('batches');
    const total = await batches.countDocuments();
    expect(total % BATCH).toBe(0);
    expect(total / BATCH).toBeGreaterThanOrEqual(acknowledged);
    const perBatch = await batches
      .aggregate([{ $group: { _id: '$batch', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(perBatch.every((group) => group.n === BATCH)).toBe(true);
  } finally {
    await client.close();
    await server.close();
  }
});
