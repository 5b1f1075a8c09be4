import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';
import { GRAPHQL_PAGE, MESSAGES_PER_CHANNEL } from './chat.js';
import { CODE, ITEM_QUERY, OTHER_ITEMS, seedReadItem } from './items.js';

/**
 * `npx tsx bench/graphql-cpu.ts`: the service's CPU time per request (process.cpuUsage(), so the
 * embedded database's thread too), GraphQL beside REST on the same reads as bench/items.ts and
 * bench/chat.ts. autocannon runs in a child process, so its own work is not counted; cases take
 * turns, and the figure is the median of the rounds. On a shared machine this is steadier than
 * the req/s of `npm run bench`, whose load generator shares the service's process.
 * ROUNDS (8) and REQUESTS (2000 a round) tune it.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const FUTURE = Date.parse('2030-01-01T00:00:00.000Z');

/**
 * autocannon in a child: a fixed number of requests; `UNIQUE` in the path becomes a `before` never
 * asked before (counted on from `first`), so each is a cache miss.
 */
const LOAD = `
const autocannon = require('autocannon');
const [url, method, body, amount, first] = process.argv.slice(1);
const target = new URL(url);
let n = Number(first);
const unique = url.includes('UNIQUE');
const fresh = (r) => ({ ...r, path: (target.pathname + target.search).replace('UNIQUE', new Date(${FUTURE} + ++n).toISOString()) });
autocannon({ url, method, connections: 10, amount: Number(amount),
  headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
  ...(method === 'POST' ? { body } : {}),
  ...(unique ? { requests: [{ setupRequest: fresh }] } : {}),
}, (error, r) => {
  if (error) throw error;
  process.stdout.write(JSON.stringify({ requests: r.requests.total, non2xx: r.non2xx }));
});`;

/** In slices, so a seed as large as `npm run bench`'s never builds one huge array. */
async function insertInSlices<T>(
  count: number,
  make: (i: number) => T,
  insert: (docs: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += 10_000)
    await insert(
      Array.from({ length: Math.min(10_000, count - start) }, (_, i) => make(start + i)),
    );
}

/** The sizes of `npm run bench` (bench/items.ts, bench/chat.ts): 100,000 works, 200,000 messages. */
async function seed(db: Database): Promise<void> {
  const when = new Date('2026-08-03T12:00:00.000Z');
  await insertInSlices(
    OTHER_ITEMS,
    (i) => ({
      code: `seed${i}`,
      source: `(wipe navy) ; ${i}`,
      hash: `bench-seed-${i}`,
      when,
      lastAccessed: when,
      hits: 1,
    }),
    (docs) => db.kidlisp.insertMany(docs),
  );
  await seedReadItem(db, when);
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  await insertInSlices(
    MESSAGES_PER_CHANNEL,
    (i) => ({
      _id: new ObjectId(),
      user: i % 7 === 0 ? '' : `account-${i % 200}`,
      text: `system message ${i} with some words in it`,
      when: new Date(t0 + i * 1_000),
    }),
    (docs) => db.chat.system.insertMany(docs),
  );
  await db.handles.insertMany(
    Array.from({ length: 150 }, (_, i) => ({ _id: `account-${i}`, handle: `handle${i}` })),
  );
}

type Case = { path: string; method: 'GET' | 'POST'; body?: string };
const cases: Record<string, Case> = {
  'REST /api/items/<code>': { path: `/api/items/${CODE}`, method: 'GET' },
  'GraphQL item(code:)': { path: '/graphql', method: 'POST', body: ITEM_QUERY },
  'REST chat page, uncached': { path: '/api/chat-messages?limit=50&before=UNIQUE', method: 'GET' },
  'GraphQL chatMessages(last: 50)': { path: '/graphql', method: 'POST', body: GRAPHQL_PAGE },
};

let asked = 0;
function load(url: string, c: Case, amount: number) {
  const first = asked;
  asked += amount;
  return new Promise<{ requests: number; non2xx: number }>((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', LOAD, url, c.method, c.body ?? '', String(amount), String(first)],
      (error, out) => (error ? reject(error) : resolve(JSON.parse(out))),
    ),
  );
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-cpu-'));
const service = await startService(
  loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
  createLogger('silent'),
);
try {
  await seed(service.services.db);
  for (const c of Object.values(cases)) await load(`${service.url}${c.path}`, c, 500);
  const micros: Record<string, number[]> = Object.fromEntries(
    Object.keys(cases).map((name) => [name, []]),
  );
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, c] of Object.entries(cases)) {
      const before = process.cpuUsage();
      const { requests, non2xx } = await load(`${service.url}${c.path}`, c, REQUESTS);
      const used = process.cpuUsage(before);
      if (non2xx) throw new Error(`${name}: ${non2xx} non-2xx answers`);
      micros[name]?.push((used.user + used.system) / requests);
    }
  const of = (name: string) => median(micros[name] ?? []);
  for (const name of Object.keys(cases))
    console.log(`${name}: ${of(name).toFixed(0)} µs of CPU a request (median of ${ROUNDS})`);
  const ratio = (graphql: string, rest: string) => (of(rest) / of(graphql)).toFixed(2);
  console.log(
    `GraphQL item / REST item: ${ratio('GraphQL item(code:)', 'REST /api/items/<code>')} (as req/s: REST's CPU over GraphQL's)`,
  );
  console.log(
    `GraphQL chat / REST chat: ${ratio('GraphQL chatMessages(last: 50)', 'REST chat page, uncached')}`,
  );
} finally {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
}
