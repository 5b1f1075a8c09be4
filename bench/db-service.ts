import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The service as an operator runs it, for bench/db-restore.ts and bench/db-contention.ts: the
 * compiled CLI (`npm start`'s `node dist/src/cli.js`) when these run compiled, else under tsx.
 */
const compiled = import.meta.url.endsWith('.js');
const cli = fileURLToPath(new URL(compiled ? '../src/cli.js' : '../src/cli.ts', import.meta.url));
const nodeArgs = compiled ? [cli] : ['--import', 'tsx', cli];

export interface CliRun {
  ms: number;
  /** Peak resident memory of the process, MiB (from /usr/bin/time). */
  peakMiB: number;
  stdout: string;
  stderr: string;
}

/** Runs `publish-gateway <args>` on DATA_DIR to its end; throws unless it exits 0. */
export async function runCli(dataDir: string, args: string[]): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(
    '/usr/bin/time',
    ['-f', 'peak-kib %M', process.execPath, ...nodeArgs, ...args],
    {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`publish-gateway ${args.join(' ')} exited ${code}: ${stderr}`);
  const peakKiB = Number(/peak-kib (\d+)/.exec(stderr)?.[1] ?? 0);
  return { ms: performance.now() - started, peakMiB: peakKiB / 1024, stdout, stderr };
}

export interface RunningService {
  child: ChildProcess;
  url: string;
  /** The embedded database's connection string (DATA_DIR/db/endpoint.json). */
  databaseUri: string;
  /** When it was spawned (performance.now()). */
  startedAt: number;
  /** Spawn to the first /readyz answered 200. */
  readyMs: number;
  /** Log lines the service printed (JSON), as they come. */
  logs: string[];
  stop(): Promise<void>;
}

/** Starts `publish-gateway serve` on DATA_DIR (PORT 0) and waits for /readyz to answer 200. */
export async function startService(dataDir: string, timeoutMs = 60_000): Promise<RunningService> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: string[] = [];
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      logs.push(line);
      const { msg, url: listening } = JSON.parse(line) as { msg?: string; url?: string };
      if (msg === 'publish-gateway listening' && listening) resolve(listening);
    });
    void exited.then(([code]) =>
      reject(new Error(`the service exited (${code}) before listening`)),
    );
    setTimeout(() => reject(new Error('the service did not listen in time')), timeoutMs).unref();
  });
  for (;;) {
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => undefined,
    );
    if (ready?.status === 200) break;
    if (performance.now() - started > timeoutMs) throw new Error('/readyz did not answer 200');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyMs = performance.now() - started;
  const endpoint = JSON.parse(await readFile(join(dataDir, 'db', 'endpoint.json'), 'utf8'));
  return {
    child,
    url,
    databaseUri: endpoint.uri,
    startedAt: started,
    readyMs,
    logs,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The share (0 to 1) of each index being built, from the service's /metrics. */
export async function indexBuildProgress(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const progress: Record<string, number> = {};
  for (const match of text.matchAll(
    /^database_index_build_progress\{collection="([^"]+)",index="([^"]+)"\} (\S+)$/gm,
  ))
    progress[`${match[1]} ${match[2]}`] = Number(match[3]);
  return progress;
}
