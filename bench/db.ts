import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Collection, type Db, type Document, MongoClient, ObjectId } from 'mongodb';
import { startEmbeddedMongo } from '../src/db/embedded/index.js';
import { startEmbeddedMongoInWorker } from '../src/db/embedded/threaded.js';
import {
  hundredthToken,
  RARE_COLD,
  RARE_SAMPLES,
  RARE_WARM_UP,
  type RareLatencies,
  rareLatencies,
  type SearchLatencies,
  searchLatencies,
  serviceSearches,
} from './db-search.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrencies = [20, 1];
const sizes = (process.env.BENCH_SCALE ?? '10000,100000,1000000').split(',').map(Number);
const PAGE = 50;
const ACCOUNTS = 1_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const FUTURE = new Date('2030-01-01T00:00:00.000Z');

interface Row {
  backend: string;
  operation: string;
  concurrency: number;
  opsPerSecond: number;
  meanMs: number;
}

/**
 * Runs `operation` from `concurrency` loops for the configured time, after a second of the same
 * that is not counted (so both processes' code is compiled and their pools are full); returns
 * rate and mean latency.
 */
async function measure(concurrency: number, operation: (n: number) => Promise<unknown>) {
  let next = 0;
  const run = async (ms: number) => {
    let done = 0;
    const started = performance.now();
    const deadline = started + ms;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          await operation(next++);
          done++;
        }
      }),
    );
    return { done, elapsed: (performance.now() - started) / 1000 };
  };
  await run(1000);
  const { done, elapsed } = await run(seconds * 1000);
  return { opsPerSecond: done / elapsed, meanMs: (elapsed * 1000 * concurrency) / done };
}

async function benchBackend(backend: string, dataDir: string | null): Promise<Row[]> {
  const server = await startEmbeddedMongo({ dataDir });
  const client = await new MongoClient(server.uri).connect();
  const rows: Row[] = [];
  try {
    const docs: Collection = client.db('bench').collection('docs');
    await docs.createIndex({ code: 1 }, { unique: true });
    let inserted = 0;
    for (const concurrency of concurrencies) {
      const insert = await measure(concurrency, async () => {
        const n = inserted++;
        await docs.insertOne({
          code: `c${n}`,
          hash: `h${n}`,
          when: new Date(),
          hits: 0,
          source: 'x'.repeat(200),
        });
      });
      rows.push({ backend, operation: 'insertOne', concurrency, ...insert });
    }
    for (const concurrency of concurrencies) {
      const find = await measure(concurrency, async (n) => {
        const doc = await docs.findOne({ code: `c${(n * 7919) % inserted}` });
        if (!doc) throw new Error('a document went missing');
      });
      rows.push({ backend, operation: 'findOne by unique index', concurrency, ...find });
    }
  } finally {
    await client.close();
    await server.close();
  }
  return rows;
}

// ---- The scale run: a chat history grown to each size, in a server process of its own. ----

/** The server as a child process, so its memory, stop and restart are its own. */
interface Child {
  process: ChildProcess;
  uri: string;
}

async function startServer(dataDir: string): Promise<{ child: Child; readyMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const client = await new MongoClient(line).connect();
    await client.db('admin').command({ ping: 1 });
    await client.close();
    return { child: { process: child, uri: line }, readyMs: performance.now() - started };
  }
  throw new Error('the server process ended before listening');
}

async function stopServer(child: Child): Promise<number> {
  const started = performance.now();
  const exited = once(child.process, 'exit');
  child.process.kill('SIGTERM');
  await exited;
  return performance.now() - started;
}

/** CPU time a process has used so far (user and system), in seconds. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const residentMiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/**
 * The chat indexes the service creates (src/db/indexes.ts) on the collections it reads, the
 * trigram index of the embedded default included unless `trigram` is false (the twin that
 * measures what the index costs).
 */
async function chatIndexes(db: Db, trigram = true): Promise<void> {
  await db
    .collection('chat-system')
    .createIndexes([
      { key: { when: -1, _id: -1 }, name: 'chat_when_id' },
      { key: { user: 1, when: -1, _id: -1 }, name: 'chat_user_when_id' },
      ...(trigram
        ? [{ key: { text: 'trigram' } as unknown as Document, name: 'chat_text_trigram' }]
        : []),
    ]);
  await db.collection('hearts').createIndex({ type: 1, for: 1 }, { name: 'hearts_type_for' });
  await db.collection('@handles').createIndex({ handle: 1 }, { name: 'handles_handle' });
}

/** Message `i`'s text: its number, and a token each 97th message shares. */
const messageText = (i: number) => `system message ${i} with some words in it ${hundredthToken(i)}`;

/** An inserted probe's text: a message's words, no message's number. */
const probeText = (i: number) => `probe ${i} with some words in it ${hundredthToken(i)}`;

/**
 * Grows the history of each database from `from` to `to` messages (a heart on every tenth),
 * the same batches into each in turn. Returns each one's messages/s (its own time only).
 */
async function grow(dbs: Db[], from: number, to: number): Promise<number[]> {
  const spent = dbs.map(() => 0);
  const batch = 5_000;
  for (let at = from; at < to; at += batch) {
    const messages: Document[] = [];
    const hearts: Document[] = [];
    for (let i = at; i < Math.min(to, at + batch); i++) {
      const _id = new ObjectId();
      messages.push({
        _id,
        user: i % 7 === 0 ? '' : `account-${i % ACCOUNTS}`,
        text: messageText(i),
        when: new Date(T0 + i * 1_000),
      });
      if (i % 10 === 0)
        hearts.push({
          user: `fan-${i % 13}`,
          type: 'chat-system',
          for: _id.toHexString(),
          when: new Date(T0),
        });
    }
    for (const [n, db] of dbs.entries()) {
      const started = performance.now();
      await db.collection('chat-system').insertMany(messages, { ordered: false });
      if (hearts.length > 0) await db.collection('hearts').insertMany(hearts, { ordered: false });
      spent[n] = (spent[n] as number) + performance.now() - started;
    }
  }
  return spent.map((ms) => ((to - from) / ms) * 1000);
}

/** `du` of a data directory, in MiB. */
const duMiB = (dir: string) =>
  Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) / 1024;

/** The pages the database's documents and indexes take in the data file, in MiB. */
async function dataPagesMiB(db: Db): Promise<number> {
  const stats = await db.command({ dbStats: 1 }).catch(() => ({ storageSize: 0, indexSize: 0 }));
  return (Number(stats.storageSize ?? 0) + Number(stats.indexSize ?? 0)) / 2 ** 20;
}

/** insertRates into servers started on these data directories, then stopped and removed. */
async function insertRatesOn(dirs: string[], next: () => number): Promise<InsertRates> {
  const servers = await Promise.all(dirs.map(async (dir) => (await startServer(dir)).child));
  const clients = await Promise.all(
    servers.map((server) => new MongoClient(server.uri, { maxPoolSize: 20 }).connect()),
  );
  try {
    return await insertRates(
      clients.map((client) => client.db('scale')),
      servers.map((server) => server.process.pid as number),
      next,
    );
  } finally {
    for (const client of clients) await client.close();
    for (const server of servers) await stopServer(server);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** Rounds of insertOne into each database, alternating which goes first. */
const INSERT_ROUNDS = 4;

/** insertOne through the driver into each database: rates, the median round's ratio, server CPU. */
interface InsertRates {
  /** Each one's inserts/s over all its rounds. */
  rates: number[];
  /** The median of the rounds' ratios (first database's rate over the second's). */
  medianRatio: number;
  /** Each server process's CPU per insert, in microseconds, the work it did after them included. */
  cpuMicros: number[];
}

/**
 * insertOne through the driver, 20 concurrent, into each database in turn, INSERT_ROUNDS times
 * (the order alternating, so a slow moment of the shared CPU falls on both), and the CPU each
 * server process spent per insert: over the rounds and until it is idle again afterwards (a
 * trigram index folds its pending list in the background: ./src/db/embedded/posting-folds.ts).
 */
async function insertRates(dbs: Db[], pids: number[], next: () => number): Promise<InsertRates> {
  const done = dbs.map(() => ({ ops: 0, seconds: 0 }));
  const inserts = dbs.map(() => 0);
  const cpuBefore = pids.map(cpuSeconds);
  const ratios: number[] = [];
  for (let round = 0; round < INSERT_ROUNDS; round++) {
    const rates: number[] = [];
    const order = [...dbs.keys()];
    if (round % 2 === 1) order.reverse();
    for (const n of order) {
      const db = dbs[n] as Db;
      const rate = await measure(20, async () => {
        const i = next();
        inserts[n] = (inserts[n] as number) + 1;
        await db
          .collection('chat-system')
          .insertOne({ user: 'account-1', text: probeText(i), when: new Date(T0 - i) });
      });
      rates[n] = rate.opsPerSecond;
      const total = done[n] as { ops: number; seconds: number };
      total.ops += rate.opsPerSecond * seconds;
      total.seconds += seconds;
    }
    ratios.push((rates[0] as number) / (rates[1] as number));
  }
  const cpuMicros: number[] = [];
  for (const [n, pid] of pids.entries()) {
    await untilIdle(pid);
    cpuMicros.push((1e6 * (cpuSeconds(pid) - (cpuBefore[n] as number))) / (inserts[n] as number));
  }
  ratios.sort((a, b) => a - b);
  return {
    rates: done.map(({ ops, seconds: s }) => ops / s),
    medianRatio:
      ((ratios[(ratios.length - 1) >> 1] as number) + (ratios[ratios.length >> 1] as number)) / 2,
    cpuMicros,
  };
}

/** Waits until a process has used (almost) no CPU for 300 ms, after the second its background work may wait to start. */
async function untilIdle(pid: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  for (let tries = 0; tries < 100; tries++) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (cpuSeconds(pid) - before < 0.02) return;
  }
}

/** One chat page as the service reads it: the messages, their hearts, their authors' handles. */
async function page(db: Db, before: Date, user?: string): Promise<number> {
  const filter: Document = { deleted: { $ne: true }, when: { $lt: before } };
  if (user !== undefined) filter.user = user;
  const rows = await db
    .collection('chat-system')
    .find(filter, {
      sort: { when: -1, _id: -1 },
      limit: PAGE,
      batchSize: PAGE + 1,
      projection: { user: 1, text: 1, when: 1 },
      maxTimeMS: 3_000,
    })
    .toArray();
  const ids = rows.map((r) => (r._id as ObjectId).toHexString());
  const users = [...new Set(rows.map((r) => r.user).filter((u): u is string => !!u))];
  await Promise.all([
    db
      .collection('hearts')
      .aggregate([
        { $match: { type: { $in: ['chat-system'] }, for: { $in: ids } } },
        { $group: { _id: { type: '$type', for: '$for' }, count: { $sum: 1 } } },
      ])
      .toArray(),
    db
      .collection<{ _id: string; handle: string }>('@handles')
      .find({ _id: { $in: users } }, { projection: { handle: 1 } })
      .toArray(),
  ]);
  return rows.length;
}

async function latency(
  run: () => Promise<unknown>,
  times = 25,
): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p95: at(0.95) };
}

interface ScaleRow {
  size: number;
  growPerSec: number;
  newest: string;
  middle: string;
  oldest: string;
  from: string;
  search: string;
  searches: SearchLatencies;
  /** Three no-match searches at once through the service's chat route: each one's status and ms. */
  serviceSearches: string;
  insertOne: number;
  /** The median of the insert rounds' ratios to the twin without the trigram index. */
  insertMedianRatio: number;
  /** The server's CPU per insert (µs), its background work after them included. */
  insertCpu: number;
  findOne: number;
  /** Percent of one core the server process used during the findOne run. */
  findOneServerCpu: number;
  stopMs: number;
  restartMs: number;
  rssMiB: number;
  diskMiB: number;
  loopDelayMs: number;
  /** The same data without the trigram index, grown in the same run (bench/db.ts, scaleRun). */
  plain: PlainTwin;
  /** `du` of the data directory. */
  duMiB: number;
}

/** Rare kinds measured warm on the twin without the trigram index, where each rare match scans. */
const PLAIN_RARE = 3;

/** The twin without the trigram index: its load and insert rates, sizes and rare searches. */
interface PlainTwin {
  growPerSec: number;
  insertOne: number;
  insertCpu: number;
  duMiB: number;
  diskMiB: number;
  searches: RareLatencies;
}

const shown = ({ p50, p95 }: { p50: number; p95: number }) =>
  `${p50.toFixed(1)} / ${p95.toFixed(1)}`;

const NO_MATCH = { deleted: { $ne: true }, text: { $regex: 'no such words', $options: 'i' } };

/**
 * The service's side of isolation: the server in a worker thread of this process (as
 * `npm start` runs it), three no-match searches at once, and the worst delay this thread's
 * event loop saw meanwhile (what /healthz would wait), in ms.
 */
async function loopDelayDuringSearches(dataDir: string): Promise<number> {
  const server = await startEmbeddedMongoInWorker({ dataDir });
  const client = await new MongoClient(server.uri).connect();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  try {
    const chat = client.db('scale').collection('chat-system');
    delay.enable();
    await Promise.all(
      [1, 2, 3].map(() =>
        chat
          .find(NO_MATCH, { sort: { when: -1, _id: -1 }, limit: PAGE, maxTimeMS: 120_000 })
          .toArray(),
      ),
    );
    delay.disable();
    return delay.max / 1e6;
  } finally {
    await client.close();
    await server.close();
  }
}

async function scaleRun(): Promise<ScaleRow[]> {
  // The embedded database under a service's DATA_DIR (`<root>/db`), so the service can open it.
  const root = await mkdtemp(join(tmpdir(), 'embedded-scale-'));
  const dataDir = join(root, 'db');
  const plainDir = join(root, 'plain');
  const rows: ScaleRow[] = [];
  let { child } = await startServer(dataDir);
  let { child: plainChild } = await startServer(plainDir);
  let plainClient = await new MongoClient(plainChild.uri, { maxPoolSize: 20 }).connect();
  try {
    let client = await new MongoClient(child.uri, { maxPoolSize: 20 }).connect();
    let db = client.db('scale');
    let plainDb = plainClient.db('scale');
    // Inserts are measured on copies of the two directories, so each size holds its messages only.
    const copies = [join(root, 'db-copy'), join(root, 'plain-copy')];
    await chatIndexes(db);
    await chatIndexes(plainDb, false);
    for (const each of [db, plainDb])
      await each.collection('@handles').insertMany(
        Array.from({ length: ACCOUNTS * 0.75 }, (_, i) => ({
          _id: `account-${i}` as unknown as ObjectId,
          handle: `handle${i}`,
        })),
      );
    let size = 0;
    let probes = 0;
    for (const target of sizes) {
      const [growPerSec = 0, plainGrowPerSec = 0] = await grow([db, plainDb], size, target);
      size = target;
      const sized = {
        duMiB: duMiB(dataDir),
        diskMiB: await dataPagesMiB(db),
        plainDuMiB: duMiB(plainDir),
        plainDiskMiB: await dataPagesMiB(plainDb),
      };
      const when = (i: number) => new Date(T0 + i * 1_000);
      const newest = await latency(() => page(db, FUTURE));
      const middle = await latency(() => page(db, when(Math.floor(size / 2))));
      const oldest = await latency(() => page(db, when(PAGE + 10)));
      const from = await latency(() => page(db, FUTURE, 'account-5'));
      const search = await latency(
        () =>
          db
            .collection('chat-system')
            .find(NO_MATCH, { sort: { when: -1, _id: -1 }, limit: PAGE, maxTimeMS: 60_000 })
            .toArray(),
        3,
      );
      const searches = await searchLatencies(db.collection('chat-system'), size);
      const plainSearches = await rareLatencies(
        plainDb.collection('chat-system'),
        size,
        PLAIN_RARE,
      );
      for (const open of [client, plainClient]) await open.close();
      for (const server of [child, plainChild]) await stopServer(server);
      for (const [n, dir] of [dataDir, plainDir].entries())
        execFileSync('cp', ['-r', dir, copies[n] as string]);
      child = (await startServer(dataDir)).child;
      plainChild = (await startServer(plainDir)).child;
      client = await new MongoClient(child.uri, { maxPoolSize: 20 }).connect();
      plainClient = await new MongoClient(plainChild.uri, { maxPoolSize: 20 }).connect();
      db = client.db('scale');
      plainDb = plainClient.db('scale');
      const inserted = await insertRatesOn(copies, () => ++probes);
      const [insertOne = 0, plainInsertOne = 0] = inserted.rates;
      const [insertCpu = 0, plainInsertCpu = 0] = inserted.cpuMicros;
      const ids = await db
        .collection('chat-system')
        .find(
          {},
          {
            projection: { _id: 1 },
            limit: 2000,
            sort: { when: -1, _id: -1 },
            skip: Math.floor(size / 3),
          },
        )
        .toArray();
      const cpuBefore = cpuSeconds(child.process.pid as number);
      const findStarted = performance.now();
      const found = await measure(20, async (n) => {
        const doc = await db.collection('chat-system').findOne({ _id: ids[n % ids.length]?._id });
        if (!doc) throw new Error('a message went missing');
      });
      const findOne = {
        ...found,
        serverCpu:
          (100 * (cpuSeconds(child.process.pid as number) - cpuBefore)) /
          ((performance.now() - findStarted) / 1000),
      };
      const rssMiB = residentMiB(child.process.pid as number);
      await client.close();
      const stopMs = await stopServer(child);
      const loopDelayMs = await loopDelayDuringSearches(dataDir);
      const throughService = await serviceSearches(root, 'scale');
      const restarted = await startServer(dataDir);
      child = restarted.child;
      client = await new MongoClient(child.uri, { maxPoolSize: 20 }).connect();
      db = client.db('scale');
      rows.push({
        size,
        growPerSec,
        newest: shown(newest),
        middle: shown(middle),
        oldest: shown(oldest),
        from: shown(from),
        search: shown(search),
        searches,
        serviceSearches: throughService,
        insertOne,
        insertMedianRatio: inserted.medianRatio,
        insertCpu,
        findOne: findOne.opsPerSecond,
        findOneServerCpu: findOne.serverCpu,
        stopMs,
        restartMs: restarted.readyMs,
        rssMiB,
        diskMiB: sized.diskMiB,
        duMiB: sized.duMiB,
        loopDelayMs,
        plain: {
          growPerSec: plainGrowPerSec,
          insertOne: plainInsertOne,
          insertCpu: plainInsertCpu,
          duMiB: sized.plainDuMiB,
          diskMiB: sized.plainDiskMiB,
          searches: plainSearches,
        },
      });
      process.stderr.write(`scale ${size}: done\n`);
    }
    await client.close();
  } finally {
    await plainClient.close();
    await stopServer(plainChild).catch(() => 0);
    await stopServer(child).catch(() => 0);
    await rm(root, { recursive: true, force: true });
  }
  return rows;
}

/** What the trigram index costs at each size, beside the twin without it (each a ratio in one run). */
function indexCosts(scale: ScaleRow[]): string {
  const n = (value: number) => Math.round(value).toLocaleString('en');
  const each = scale.map(
    (r) =>
      `at ${n(r.size)} messages it takes ${n(r.duMiB - r.plain.duMiB)} MiB on disk (du ${(r.duMiB / r.plain.duMiB).toFixed(2)}x the data without it), loads at ${(r.growPerSec / r.plain.growPerSec).toFixed(2)} and inserts through the driver at ${(r.insertOne / r.plain.insertOne).toFixed(2)} of the rates without it (median round ${r.insertMedianRatio.toFixed(2)}; the server's CPU per insert ${(r.insertCpu / r.plain.insertCpu).toFixed(2)}x), and a newest-first page of a term in 1 of 97 messages takes ${r.searches.hundredth.p50.toFixed(1)} ms at p50 warm (${r.plain.searches.hundredth.p50.toFixed(1)} without it; cold ${r.searches.coldHundredth.toFixed(1)}), of a term in one message ${r.searches.rare.p50.toFixed(1)} ms warm (${r.plain.searches.rare.p50.toFixed(1)} without it; cold ${r.searches.coldRare.toFixed(1)})`,
  );
  return `What the trigram index costs as the history grows: ${each.join('; ')}.`;
}

/** `npm run bench:db`: point operations, then the chat history at growing sizes. */
async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'embedded-bench-'));
  const rows: Row[] = [];
  try {
    rows.push(...(await benchBackend('temporary directory', null)));
    rows.push(...(await benchBackend('data directory', dataDir)));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  let report = '';
  const out = (text: string) => {
    process.stdout.write(text);
    report += text;
  };
  out('# Embedded database benchmark (`npm run bench:db`)\n\n');
  out(
    `Run: ${new Date().toISOString()}. Embedded MongoDB server (LMDB), ${seconds} s per case, ${cpus().length} CPUs, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the start\n\n`,
  );
  out(
    'Point operations on a small collection, the server in the measuring process itself (the driver and the server share one thread, over TCP):\n\n',
  );
  out('| backend | operation | concurrency | ops/s | mean latency |\n|---|---|---:|---:|---:|\n');
  for (const row of rows) {
    const rate = Math.round(row.opsPerSecond).toLocaleString('en');
    out(
      `| ${row.backend} | ${row.operation} | ${row.concurrency} | ${rate} | ${row.meanMs.toFixed(2)} ms |\n`,
    );
  }
  if (sizes.every((size) => size > 0)) {
    const scale = await scaleRun();
    out(
      `\nChat history (a heart on every tenth message, ${ACCOUNTS} accounts, 3 in 4 with a handle) in a server process of its own, grown to each size, reached over a Unix socket as the service reaches it. Pages of ${PAGE}, p50 / p95 ms of 25, each the service's three commands (messages, hearts, handles) through the driver: newest, middle and oldest depth, and one account's newest (\`from\`). Search: a case-insensitive regex matching nothing, sorted newest first (through the trigram index: see the search table), p50 / p95 of 3. insertOne and findOne by _id: 20 concurrent for ${seconds} s after 1 s not counted, with the CPU the server process used meanwhile (the inserts into copies of the two data directories, each in a server process started on its copy, so that every size holds its grown messages only) (of one core; the measuring process, the driver's side, takes the other). Stop: SIGTERM to exit; restart: spawn to first answered ping. RSS: the server process after the reads, mapped data pages included. Data: the pages the database's documents and indexes take in the data file; du: the data directory on disk. Each beside the same data grown in the same run, batch by batch in turn, into a second server process without the trigram index (load and insert rates each its own time; insertOne ${INSERT_ROUNDS} rounds each, alternating which goes first: the rate over all of them, and the median of the rounds' ratios), and the ratio. Server CPU per insert: what the server process spent from the first round until it was idle again after the last (the trigram index folds its pending list in the background), per insert made (warm-up included), in µs. Loop delay: the server in a worker thread of the measuring process (as \`npm start\` runs it), the worst event-loop delay of the main thread while three searches run at once.\n\n`,
    );
    out(
      '| messages | load msg/s (without trigram index; ratio) | newest | middle | oldest | from=@handle | search, no match | insertOne/s (20) (without; ratio) | insertOne median round ratio | server CPU µs per insert (without; ratio) | findOne _id/s (20) | server CPU, findOne | stop ms | restart-to-ready ms | RSS MiB | data MiB (without; ratio) | du MiB (without; ratio) | loop delay, 3 searches (ms) |\n',
    );
    out(
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    const n = (value: number) => Math.round(value).toLocaleString('en');
    const beside = (value: number, without: number) =>
      `${n(value)} (${n(without)}; ${(value / without).toFixed(2)})`;
    for (const r of scale)
      out(
        `| ${n(r.size)} | ${beside(r.growPerSec, r.plain.growPerSec)} | ${r.newest} | ${r.middle} | ${r.oldest} | ${r.from} | ${r.search} | ${beside(r.insertOne, r.plain.insertOne)} | ${r.insertMedianRatio.toFixed(2)} | ${beside(r.insertCpu, r.plain.insertCpu)} | ${n(r.findOne)} | ${n(r.findOneServerCpu)}% | ${n(r.stopMs)} | ${n(r.restartMs)} | ${n(r.rssMiB)} | ${beside(r.diskMiB, r.plain.diskMiB)} | ${beside(r.duMiB, r.plain.duMiB)} | ${r.loopDelayMs.toFixed(1)} |\n`,
      );
    out(
      `\nSearch through the trigram index (src/db/embedded/trigrams.ts), the chat's query (case-insensitive \`$regex\` of the escaped term, newest first, 50), a fresh term each time, p50 / p95 ms of 10 (of 3 for the last; the rare kinds as said below): a match among the newest messages (a phrase every message holds), a rare match (one message, somewhere), 1 in 97 (a token each 97th message ends with: the newest 50 of them; and three such searches at once through the driver), no match (a trigram no message holds), and no match though every trigram is common (each one in every message: the sort index is read, each entry probed for one trigram, then fetched and tested). Service: three no-match searches at once through \`GET /api/chat-messages?search=&limit=100\` of the service on this data (the embedded default), each one's status and time. The rare kinds (rare match, 1 in 97) are measured warm, the standard way: at each size (the indexed server is a fresh process at each size after the first; the twin's one process serves every size), ${RARE_WARM_UP} searches of each kind not counted, then p50 / p95 of ${RARE_SAMPLES} more; cold: the p50 of the first ${RARE_COLD} of each kind (the first half of the warm-up), the server's code for them not yet compiled. Without the index: the same data grown in the same run into a second server process without the trigram index, its rare kinds after the same warm-up, p50 / p95 of ${PLAIN_RARE} (each rare match scans the collection), and their cold p50.\n\n`,
    );
    out(
      '| messages | newest match | rare match, warm | 1 in 97, warm | rare match, cold p50 | 1 in 97, cold p50 | 1 in 97, 3 at once (slowest ms) | no match | no match, common trigrams | service, 3 at once | without the index: rare match, warm | without: 1 in 97, warm | without: rare match, cold p50 | without: 1 in 97, cold p50 |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n',
    );
    for (const r of scale)
      out(
        `| ${n(r.size)} | ${shown(r.searches.newest)} | ${shown(r.searches.rare)} | ${shown(r.searches.hundredth)} | ${r.searches.coldRare.toFixed(1)} | ${r.searches.coldHundredth.toFixed(1)} | ${n(r.searches.hundredthThree)} | ${shown(r.searches.none)} | ${shown(r.searches.noneCommon)} | ${r.serviceSearches} | ${shown(r.plain.searches.rare)} | ${shown(r.plain.searches.hundredth)} | ${r.plain.searches.coldRare.toFixed(1)} | ${r.plain.searches.coldHundredth.toFixed(1)} |\n`,
      );
    out(`\n${indexCosts(scale)}\n`);
    out(
      `\nLoad average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}.\n`,
    );
  }
  // Written by bench/db-restore.ts and bench/db-contention.ts, which this run does not rewrite.
  out(
    '\nRestore, start-up on an upgraded directory and reads during scans: bench/db-restore-results.md.\n',
  );
  await writeFile(new URL('../../bench/db-results.md', import.meta.url), report);
}

/**
 * `db.js serve <dir>`: the server process of the scale run, on a Unix socket in the data
 * directory as the service reaches its database (src/db/embedded/service-database.ts); prints
 * its URI.
 */
async function serve(dataDir: string): Promise<void> {
  const server = await startEmbeddedMongo({ dataDir, socketPath: join(dataDir, 'mongod.sock') });
  process.stdout.write(`${server.uri}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as string);
else await main();
