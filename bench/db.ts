import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Collection, MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src/db/embedded/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrencies = [20, 1];

interface Row {
  backend: string;
  operation: string;
  concurrency: number;
  opsPerSecond: number;
  meanMs: number;
}

/** Runs `operation` from `concurrency` loops for the configured time; returns rate and mean latency. */
async function measure(concurrency: number, operation: (n: number) => Promise<unknown>) {
  let next = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await operation(next++);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
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

/** `npm run bench:db`: point operations through the official driver against the embedded server. */
async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'embedded-bench-'));
  const rows: Row[] = [];
  try {
    rows.push(...(await benchBackend('in memory', null)));
    rows.push(...(await benchBackend('on disk', dataDir)));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(
    `Embedded MongoDB server, ${seconds} s per case, ${cpus().length} CPUs, Node ${process.version}\n\n`,
  );
  process.stdout.write(
    '| backend | operation | concurrency | ops/s | mean latency |\n|---|---|---:|---:|---:|\n',
  );
  for (const row of rows) {
    const rate = Math.round(row.opsPerSecond).toLocaleString('en');
    process.stdout.write(
      `| ${row.backend} | ${row.operation} | ${row.concurrency} | ${rate} | ${row.meanMs.toFixed(2)} ms |\n`,
    );
  }
}

await main();
