import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

/** One measured case beside its baseline, from the same run. */
export interface BenchRow {
  name: string;
  baseline: string;
  requestsPerSec: number;
  baselinePerSec: number;
  ratio: number;
  p99Ms: number;
  baselineP99Ms: number;
}

export interface LoadOptions {
  url: string;
  seconds: number;
  connections?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /**
   * The body: a string is sent as it is with every request (autocannon builds the request once,
   * as it does for a GET); a function makes a fresh one per request, for writes that must not
   * deduplicate.
   */
  body?: string | (() => string);
  /** A fresh path (with its query) per request, for reads that must miss a cache. */
  path?: () => string;
}

export interface LoadResult {
  requestsPerSec: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon against one URL on loopback for a bounded time. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { body, path: makePath } = options;
  const makeBody = typeof body === 'function' ? body : undefined;
  const setupRequest = (request: autocannon.Request): autocannon.Request => ({
    ...request,
    ...(makeBody ? { body: makeBody() } : {}),
    ...(makePath ? { path: makePath() } : {}),
  });
  const result = await autocannon({
    url: options.url,
    duration: options.seconds,
    connections: options.connections ?? 20,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(typeof body === 'string' ? { body } : {}),
    ...(makeBody || makePath ? { requests: [{ setupRequest }] } : {}),
  });
  return {
    requestsPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Sums several short runs: baseline and cases take turns, so a busy machine weighs on all alike. */
export async function interleaved<Name extends string>(
  cases: Record<Name, () => Promise<LoadResult>>,
  rounds: number,
): Promise<Record<Name, LoadResult>> {
  const totals = {} as Record<Name, LoadResult>;
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(cases) as Name[]) {
      const run = cases[name];
      const result = await run();
      const total = totals[name] ?? { requestsPerSec: 0, p99Ms: 0, errors: 0, non2xx: 0 };
      totals[name] = {
        requestsPerSec: total.requestsPerSec + result.requestsPerSec / rounds,
        p99Ms: Math.max(total.p99Ms, result.p99Ms),
        errors: total.errors + result.errors,
        non2xx: total.non2xx + result.non2xx,
      };
    }
  }
  return totals;
}

export function row(
  name: string,
  baseline: string,
  measured: LoadResult,
  reference: LoadResult,
): BenchRow {
  return {
    name,
    baseline,
    requestsPerSec: Math.round(measured.requestsPerSec),
    baselinePerSec: Math.round(reference.requestsPerSec),
    ratio: Number((measured.requestsPerSec / reference.requestsPerSec).toFixed(2)),
    p99Ms: measured.p99Ms,
    baselineP99Ms: reference.p99Ms,
  };
}

/** Samples the process's resident memory while a benchmark runs. */
export function trackPeakMemory(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.round(peak / 1024 / 1024);
  };
}

export function printRows(rows: BenchRow[]): string {
  const header = '| case | req/s | baseline | baseline req/s | ratio | p99 ms | baseline p99 ms |';
  const lines = rows.map(
    (r) =>
      `| ${r.name} | ${r.requestsPerSec} | ${r.baseline} | ${r.baselinePerSec} | ${r.ratio} | ${r.p99Ms} | ${r.baselineP99Ms} |`,
  );
  return [header, '|---|---|---|---|---|---|---|', ...lines].join('\n');
}

/** A node:http server on a free loopback port: the baselines' routes. */
export async function listen(
  handler: RequestListener,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
