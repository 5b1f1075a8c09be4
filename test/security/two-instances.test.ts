import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { type CliProcess, startDbProcess, startServeProcess } from '../support/processes.js';

/**
 * Several instances over one database, as production runs them: one `publish-gateway db`
 * process and two `serve` processes pointed at it with MONGODB_URI.
 */
const LIMIT = 5;
let workDir: string;
let db: CliProcess & { uri: string };
let instances: (CliProcess & { url: string })[] = [];
let clients: HttpClient[] = [];
let mongo: MongoClient;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'gateway-two-'));
  db = await startDbProcess(join(workDir, 'db'));
  const env = {
    MONGODB_URI: db.uri,
    MONGODB_DB: 'shared',
    DATA_DIR: join(workDir, 'data'),
    RATE_LIMIT_STORE: 'mongo',
    RATE_LIMIT_PUBLISH: String(LIMIT),
    // The tests play clients behind a proxy on this machine, each with its own address.
    TRUST_PROXY: 'loopback',
  };
  instances = await Promise.all([startServeProcess(env), startServeProcess(env)]);
  clients = instances.map((instance) => createHttpClient(instance.url, { maxSockets: 25 }));
  mongo = await MongoClient.connect(db.uri);
}, 60_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await mongo?.close();
  await Promise.all(instances.map((instance) => instance.stop()));
  await db?.stop();
  await rm(workDir, { recursive: true, force: true });
}, 30_000);

describe('two instances over one database', () => {
  it('answers 50 concurrent identical publishes split across both with one document and one cached:false', async () => {
    const source = '(wipe purple)\n(ink yellow)\n(box 8 8 32 32)';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (clients[i % 2] as HttpClient).post(
          '/api/store-kidlisp',
          { source },
          { 'x-forwarded-for': `198.51.100.${i + 1}` },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status >= 300)).toEqual([]);
    expect(answers.filter((answer) => answer.json.cached === false)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.json.code)).size).toBe(1);
    const stored = mongo.db('shared').collection('kidlisp');
    expect(await stored.countDocuments({ source })).toBe(1);
    // Both instances served some of them, and both now find it.
    for (const client of clients) {
      const page = await client.get(`/$${answers[0]?.json.code}`);
      expect(page.status).toBe(200);
    }
  });

  it('holds one rate limit across both instances (RATE_LIMIT_STORE=mongo)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      const answer = await (clients[i % 2] as HttpClient).post(
        '/api/store-kidlisp',
        { source: `(wipe ${i})` },
        { 'x-forwarded-for': '203.0.113.7' },
      );
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual(Array(LIMIT).fill(429));
  });
});
