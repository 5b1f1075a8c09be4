import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';

/**
 * `npm run bench:works`: the works search (GET /api/items?search=) over 100,000 published
 * KidLisp works and 5,000 pieces on the embedded database as `npm start` runs it: a term no
 * work holds (a new one each time) and ten rare terms (each held by a KidLisp work or two and
 * maybe a piece's name), sorted by relevance (the default) and by recent. Writes
 * bench/works-search-results.md.
 */
const KIDLISP = Number(process.env.BENCH_WORKS ?? 100_000);
const PIECES = 5_000;
const BATCH = 2_000;
const SAMPLES = 10;
const ACCOUNT = 'auth0|bench-works';
const T0 = Date.parse('2026-08-01T00:00:00.000Z');

/** The term the `k`th rare pair of works holds (no other term's prefix, no common trigram). */
const rareTerm = (k: number) => `zqx${k}vw`;

async function seed(db: Awaited<ReturnType<typeof startService>>['services']['db']) {
  await db.handles.insertOne({ _id: ACCOUNT, handle: 'benchworks' });
  const rareKidlisp = (i: number) => (i % 9_973 === 17 ? ` ; ${rareTerm(i % SAMPLES)}` : '');
  for (let start = 0; start < KIDLISP; start += BATCH)
    await db.kidlisp.insertMany(
      Array.from({ length: Math.min(BATCH, KIDLISP - start) }, (_, j) => {
        const i = start + j;
        return {
          code: `w${i}`,
          source: `(wipe navy)\n(ink red)\n(box ${i % 256} ${i % 128} 10 10)${rareKidlisp(i)}`,
          hash: `bench-works-${i}`,
          when: new Date(T0 + i * 1000),
          lastAccessed: new Date(T0),
          hits: i % 50,
          user: ACCOUNT,
        };
      }),
    );
  await db.pieces.insertMany(
    Array.from({ length: PIECES }, (_, i) => ({
      code: `pc${i}`,
      name: i % 997 === 5 ? `Piece ${rareTerm(i % SAMPLES)}` : `Piece number ${i}`,
      slug: `benchworks/2026/08/01/piece-${i}.mjs`,
      source: `export function paint({ wipe, ink }) { wipe(${i % 256}); ink(1).box(1, 1, 8, 8); }`,
      hash: `bench-piece-${i}`,
      when: new Date(T0 + i * 1000),
      hits: i % 30,
      user: ACCOUNT,
    })),
  );
}

/** The rows that hold a rare term, counted once: each search must answer them. */
const rareRows = (k: number) =>
  Array.from({ length: KIDLISP }, (_, i) => i).filter((i) => i % 9_973 === 17 && i % SAMPLES === k)
    .length +
  Array.from({ length: PIECES }, (_, i) => i).filter((i) => i % 997 === 5 && i % SAMPLES === k)
    .length;

let fresh = 0;

async function latencies(
  url: string,
  term: (i: number) => string,
  sort: string,
  rows: (i: number) => number,
) {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(
      `${url}/api/items?search=${encodeURIComponent(term(i))}&sort=${sort}&limit=50`,
    );
    const body = (await response.json()) as { items?: unknown[] };
    samples.push(performance.now() - started);
    if (response.status !== 200 || body.items?.length !== rows(i))
      throw new Error(
        `search ${term(i)}: ${response.status}, ${body.items?.length} rows, not ${rows(i)}`,
      );
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    (samples[Math.min(SAMPLES - 1, Math.floor(q * SAMPLES))] as number).toFixed(1);
  return `${at(0.5)} / ${at(0.95)}`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-works-'));
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const service = await startService(config, createLogger('silent'));
  const lines: string[] = [];
  try {
    const loading = performance.now();
    await seed(service.services.db);
    const loaded = ((performance.now() - loading) / 1000).toFixed(1);
    const none = () => `nothing ${++fresh} here`;
    lines.push('| GET /api/items?search= | p50 / p95 ms |', '|---|---:|');
    for (const sort of ['relevance', 'recent']) {
      lines.push(`| no match, ${sort} | ${await latencies(service.url, none, sort, () => 0)} |`);
      lines.push(
        `| rare term (1-3 works), ${sort} | ${await latencies(service.url, rareTerm, sort, rareRows)} |`,
      );
    }
    lines.unshift(
      '# Works search benchmark (`npm run bench:works`)',
      '',
      `Run: ${new Date().toISOString()}. ${KIDLISP.toLocaleString('en')} published KidLisp works and ${PIECES.toLocaleString('en')} pieces (loaded in ${loaded} s) on the embedded database, ${cpus().length} CPUs, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )} at the end of loading. ${SAMPLES} searches a case, one after another (limit 50): each no-match term new, ten rare terms.`,
      '',
    );
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const report = `${lines.join('\n')}\n`;
  process.stdout.write(report);
  await writeFile(new URL('works-search-results.md', import.meta.url), report);
}

await main();
