import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BenchRow,
  type LoadOptions,
  type LoadResult,
  listen,
  load,
  printRows,
} from './report.js';

/**
 * Tracing's cost, measured on `publish-gateway serve` processes side by side: exporting every
 * span (OTEL_TRACES_SAMPLER=always_on, OTLP over http/protobuf to a sink in this process), and
 * one request in ten (traceidratio 0.1), against tracing off (no endpoint), and off against a build of today's main when
 * BENCH_BASE_CLI names its dist/src/cli.js. Each round starts a fresh process for each case and
 * the cases take turns, so a busy machine weighs on all alike; each ratio is the mean of the
 * rounds' ratios, with their spread.
 */

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

interface Served {
  url: string;
  /** CPU time the process (all its threads) has used so far, in ms (Linux: /proc/<pid>/stat). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** utime + stime of a process, in ms; 0 where /proc is not there. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function serve(cli: string, env: Record<string, string>): Promise<Served> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-tracing-'));
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PUBLISH: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /"url":"(http:\/\/[^"]+)"[^\n]*publish-gateway listening/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`${cli} serve exited (${code}): ${output}`)));
  });
  return {
    url,
    cpuMs: () => cpuMsOf(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One KidLisp item in each service's database, the one the workloads read. */
async function publishOne(url: string): Promise<string> {
  const response = await fetch(`${url}/api/store-kidlisp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source: '(wipe navy) (ink yellow) (line 0 0 w h)' }),
  });
  return ((await response.json()) as { code: string }).code;
}

type Workload = (url: string, code: string) => Omit<LoadOptions, 'seconds'>;

const workloads: Record<string, Workload> = {
  'GraphQL item(code:) (operation, a DataLoader batch, one find)': (url, code) => ({
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: () =>
      JSON.stringify({
        query: 'query ItemPage($code: String!) { item(code: $code) { code kind } }',
        variables: { code },
      }),
  }),
  'REST GET /api/items/<code> (operation, a DataLoader batch, one find)': (url, code) => ({
    url: `${url}/api/items/${code}`,
  }),
};

/** A run's load, and the CPU the service spent on each of its requests. */
interface Measured extends LoadResult {
  cpuMsPerRequest: number;
}

interface Compared {
  row: BenchRow;
  spread: string;
}

/** The service's CPU per request over all rounds, in ms: steadier than req/s on a shared machine. */
const cpu = (runs: Measured[]) => mean(runs.map((run) => run.cpuMsPerRequest)).toFixed(3);

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function compare(
  name: string,
  baseline: string,
  measured: Measured[],
  reference: Measured[],
): Compared {
  const ratios = measured.map(
    (run, round) => run.requestsPerSec / (reference[round] as LoadResult).requestsPerSec,
  );
  const perSec = (runs: LoadResult[]) => Math.round(mean(runs.map((run) => run.requestsPerSec)));
  const p99 = (runs: LoadResult[]) => Math.max(...runs.map((run) => run.p99Ms));
  return {
    row: {
      name,
      baseline,
      requestsPerSec: perSec(measured),
      baselinePerSec: perSec(reference),
      ratio: Number(mean(ratios).toFixed(2)),
      p99Ms: p99(measured),
      baselineP99Ms: p99(reference),
    },
    spread: `${name} against ${baseline}: rounds ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}); CPU per request ${cpu(measured)} ms against ${cpu(reference)} ms (ratio ${(Number(cpu(reference)) / Number(cpu(measured))).toFixed(2)})`,
  };
}

/** The services a round compares, each a fresh `serve` process; none is left running if one fails to start. */
async function startServices(sinkUrl: string, baseCli: string | undefined) {
  const services: Record<string, Served> = {};
  const cases: [string, string, Record<string, string>][] = [
    ['traced', CLI, { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on' }],
    [
      'sampled',
      CLI,
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
    ],
    ['off', CLI, {}],
    ...(baseCli ? [['main', baseCli, {}] as [string, string, Record<string, string>]] : []),
  ];
  try {
    for (const [name, cli, env] of cases) services[name] = await serve(cli, env);
  } catch (error) {
    await stopAll(services);
    throw error;
  }
  return services;
}

const stopAll = async (services: Record<string, Served>) => {
  for (const service of Object.values(services)) await service.stop();
};

/** One round on fresh processes: each workload on each service in turn, after a warm-up. */
async function measureRound(
  services: Record<string, Served>,
  seconds: number,
): Promise<Record<string, Record<string, Measured>>> {
  const measured: Record<string, Record<string, Measured>> = {};
  for (const [workload, requestOf] of Object.entries(workloads)) {
    const codes: Record<string, string> = {};
    for (const [name, service] of Object.entries(services))
      codes[name] = await publishOne(service.url);
    // Untimed: each process compiles its hot paths before the round counts.
    for (const [name, service] of Object.entries(services))
      await load({ ...requestOf(service.url, codes[name] as string), seconds: WARM_UP_SECONDS });
    measured[workload] = {};
    for (const [name, service] of Object.entries(services)) {
      const cpuBefore = service.cpuMs();
      const loaded = await load({ ...requestOf(service.url, codes[name] as string), seconds });
      if (loaded.errors + loaded.non2xx > 0)
        throw new Error(
          `${workload} on ${name}: ${loaded.errors} errors, ${loaded.non2xx} non-2xx`,
        );
      const requests = Math.max(1, loaded.requestsPerSec * seconds);
      measured[workload][name] = {
        ...loaded,
        cpuMsPerRequest: (service.cpuMs() - cpuBefore) / requests,
      };
    }
  }
  return measured;
}

const WARM_UP_SECONDS = 2;

export async function benchTracing(options: {
  seconds: number;
  rounds?: number;
  baseCli?: string;
}) {
  const rounds = options.rounds ?? 5;
  let exportRequests = 0;
  const sink = await listen((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      exportRequests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  // runs[workload][service]: one measurement a round.
  const runs: Record<string, Record<string, Measured[]>> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      // Fresh processes each round: the CPU a request costs differs from one process of the same
      // build to the next (docs/operations.md), so one process a case would be one draw.
      const services = await startServices(sink.url, options.baseCli);
      try {
        const measured = await measureRound(services, options.seconds);
        for (const [workload, byService] of Object.entries(measured)) {
          const ofWorkload = runs[workload] ?? {};
          runs[workload] = ofWorkload;
          for (const [name, result] of Object.entries(byService))
            ofWorkload[name] = [...(ofWorkload[name] ?? []), result];
        }
      } finally {
        await stopAll(services);
      }
    }
  } finally {
    await sink.close();
  }
  const compared: Compared[] = [];
  for (const [workload, byService] of Object.entries(runs)) {
    const off = byService.off ?? [];
    compared.push(
      compare(`${workload}, every span exported`, 'tracing off', byService.traced ?? [], off),
    );
    compared.push(
      compare(
        `${workload}, 1 request in 10 traced (traceidratio 0.1)`,
        'tracing off',
        byService.sampled ?? [],
        off,
      ),
    );
    if (byService.main)
      compared.push(compare(`${workload}, tracing off`, "today's main", off, byService.main));
  }
  return {
    rows: compared.map((entry) => entry.row),
    spreads: compared.map((entry) => entry.spread),
    exports: exportRequests,
    rounds,
  };
}

/** `node dist/bench/tracing.js`: this benchmark alone, written to bench/tracing-results.md. */
async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const result = await benchTracing({ seconds, baseCli: process.env.BENCH_BASE_CLI });
  const table = printRows(result.rows);
  const report = [
    '# Tracing benchmark',
    '',
    `Run: ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version};`,
    `${result.rounds} interleaved rounds of ${seconds} s per case, each round on fresh processes warmed up for ${WARM_UP_SECONDS} s, 20 connections, loopback; load average`,
    `${loadavg()
      .map((value) => value.toFixed(1))
      .join(
        ', ',
      )} at the end (the machine is shared). Each service is its own \`publish-gateway serve\` process;`,
    `"every span exported" and "1 request in 10 traced" send them over OTLP http/protobuf to a sink in the benchmark (${result.exports} exports received).`,
    '',
    table,
    '',
    'Ratios per round (measured / baseline, same round):',
    '',
    ...result.spreads.map((spread) => `- ${spread}`),
    '',
  ].join('\n');
  process.stdout.write(`${report}\n`);
  await writeFile(new URL('../../bench/tracing-results.md', import.meta.url), report);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
