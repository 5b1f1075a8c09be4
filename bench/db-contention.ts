import { startService } from './db-service.js';

/**
 * `db-contention.js <DATA_DIR> <messages>`: the service started on a seeded data directory
 * (bench/db-seed.ts), then chat pages (`GET /api/chat-messages?limit=50&before=<time>`, each a
 * page not cached yet) read one after another: alone first, then while four searches the
 * index cannot serve (two-letter terms no message holds) run at once. Prints each search's
 * status, time and Retry-After, and the pages' p50 / p95 / max in both phases (the same run,
 * the same process: the ratio is what the noise of a shared machine leaves readable).
 */
const TERMS = ['zq', 'qx', 'jv', 'yb'];
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const BASELINE_PAGES = 40;
const WARM_UP_PAGES = 10;

let pageNumber = 0;
/** The status of each page that did not answer 200 with 50 messages. */
let failures: string[] = [];

/** One page older than a message picked afresh each time, so no cached page answers. */
async function page(url: string, messages: number): Promise<number> {
  const i = 1_000 + ((++pageNumber * 7_919) % (messages - 1_000));
  const before = new Date(T0 + i * 1_000).toISOString();
  const started = performance.now();
  const response = await fetch(`${url}/api/chat-messages?limit=50&before=${before}`);
  const body = (await response.json()) as { count?: number };
  if (response.status !== 200 || body.count !== 50) failures.push(`${response.status}`);
  return performance.now() - started;
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const failed = failures;
  failures = [];
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    pages: times.length,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    max: round(sorted.at(-1) ?? 0),
    failed,
  };
}

async function main(dataDir: string, messages: number): Promise<void> {
  const service = await startService(dataDir);
  try {
    // Pages read first come from a cold file: these warm it up, uncounted.
    for (let n = 0; n < WARM_UP_PAGES; n++) await page(service.url, messages);
    const alone: number[] = [];
    for (let n = 0; n < BASELINE_PAGES; n++) alone.push(await page(service.url, messages));
    let running = TERMS.length;
    const searches = TERMS.map(async (term) => {
      const started = performance.now();
      const response = await fetch(`${service.url}/api/chat-messages?search=${term}&limit=50`);
      await response.arrayBuffer();
      running--;
      return {
        term,
        status: response.status,
        ms: Math.round(performance.now() - started),
        retryAfter: response.headers.get('retry-after'),
      };
    });
    const pagesAlone = summary(alone);
    const during: number[] = [];
    while (running > 0) during.push(await page(service.url, messages));
    const result = {
      messages,
      readyMs: Math.round(service.readyMs),
      searches: await Promise.all(searches),
      pagesAlone,
      pagesDuringSearches: summary(during),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await service.stop();
  }
}

const [dir, count] = process.argv.slice(2);
if (!dir || !count) throw new Error('usage: db-contention.js <DATA_DIR> <messages>');
await main(dir, Number(count));
