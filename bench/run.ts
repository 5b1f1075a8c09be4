import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';
import { benchChat } from './chat.js';
import { benchChatStream, printFanOut } from './chat-stream.js';
import { benchItems } from './items.js';
import { benchKidlispInBrowser, browserFramesTable, chromiumAvailable } from './kidlisp-browser.js';
import { benchPages } from './pages.js';
import { benchPublish } from './publish.js';
import { type BenchRow, printRows, trackPeakMemory } from './report.js';
import { benchTracing } from './tracing.js';
import { benchValidators, type TimingRow } from './validators.js';
import { benchWebhooks, printWebhookFanOut } from './webhooks.js';

/** `npm run bench`: every case beside its baseline in this one run, on loopback; writes bench/results.md. */
async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 4);
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLISH: '1000000000',
  });
  const service = await startService(config, createLogger('silent'));
  const peakMemory = trackPeakMemory();
  const rows: BenchRow[] = [];
  try {
    rows.push(...(await benchPublish(service.url, service.services.db, { seconds })));
    rows.push(...(await benchItems(service.url, service.services.db, { seconds })));
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  rows.push(...(await benchChat({ seconds })));
  rows.push(...(await benchPages({ seconds })));
  // BENCH_BASE_CLI: a build of today's main (its dist/src/cli.js), for the row "tracing off against main".
  rows.push(...(await benchTracing({ seconds, baseCli: process.env.BENCH_BASE_CLI })).rows);
  const fanOut = await benchChatStream({ seconds });
  const webhookFanOut = await benchWebhooks({ rounds: 20 });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const timings = benchValidators();
  const browserFrames = chromiumAvailable()
    ? browserFramesTable(await benchKidlispInBrowser(), 240)
    : 'KidLisp in the browser: skipped (no Chromium at /usr/bin/chromium or CHROMIUM_PATH).';
  const table = `${printRows(rows)}\n\n${printFanOut(fanOut)}\n\n${printWebhookFanOut(webhookFanOut)}\n\n${printTimings(timings)}\n\n${browserFrames}`;
  const report = [
    '# Benchmark results',
    '',
    `Run: ${new Date().toISOString()} on ${machine}; ${seconds} s per case, 20 connections, loopback,`,
    `load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')} at the end (the machine is shared: compare ratios, not absolute figures),`,
    'embedded database persisted to a temporary directory. Ratios compare each case with its baseline in the same run.',
    '',
    table,
    '',
    `Peak resident memory of the process (service, baselines and load generator): ${peakMemory()} MiB.`,
    '',
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await writeFile(new URL('../../bench/results.md', import.meta.url), report);
}

function printTimings(rows: TimingRow[]): string {
  const lines = rows.map(
    (r) => `| ${r.name} | ${r.ms} | ${r.baseline} | ${r.baselineMs} | ${r.ratio} |`,
  );
  return [
    '| validator | ms (fastest of 21) | baseline | baseline ms | ratio |',
    '|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

await main();
