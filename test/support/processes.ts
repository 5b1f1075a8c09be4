import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const BUILT_CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

/**
 * A file of the build (`dist/`), which tests run as users do; `npm test` builds before vitest.
 * Throws, saying so, when it is missing.
 */
export function requireBuilt(path: string): string {
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: build first with "npm run build" ("npm test" builds before running vitest).`,
    );
  }
  return path;
}

/** The built `publish-gateway` bin. */
export const requireBuiltCli = () => requireBuilt(BUILT_CLI);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `publish-gateway <args>` to its end with only the given environment (plus PATH), in
 * `cwd` (this process's directory when not given).
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [requireBuiltCli(), ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, ...(cwd ? { cwd } : {}) },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

export interface CliProcess {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `publish-gateway <args>` with only the given environment (plus PATH). */
export function startCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [requireBuiltCli(), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls until `find` returns a value, failing with the process's output after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  find: () => Promise<T | undefined>,
  process: CliProcess,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await find();
    if (found !== undefined) return found;
    if (process.child.exitCode !== null)
      throw new Error(`${what}: the process exited\n${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms\n${process.output()}`);
}

/** `publish-gateway db --port 0 --data-dir <dir>`, and its connection string from `<dir>/endpoint.json`. */
export async function startDbProcess(dataDir: string): Promise<CliProcess & { uri: string }> {
  const db = startCli(['db', '--port', '0', '--data-dir', dataDir], { LOG_LEVEL: 'warn' });
  const uri = await waitFor(
    'the database endpoint',
    async () => {
      const text = await readFile(join(dataDir, 'endpoint.json'), 'utf8').catch(() => undefined);
      if (!text) return undefined;
      try {
        return (JSON.parse(text) as { uri: string }).uri;
      } catch {
        return undefined; // still being written
      }
    },
    db,
  );
  return { ...db, uri };
}

/** `publish-gateway serve` on a free port; resolves with its URL once it listens. */
export async function startServeProcess(
  env: Record<string, string>,
): Promise<CliProcess & { url: string }> {
  const serve = startCli(['serve'], { PORT: '0', LOG_LEVEL: 'info', ...env });
  const url = await waitFor(
    'the service to listen',
    async () => /"url":"(http:\/\/[^"]+)"[^\n]*publish-gateway listening/.exec(serve.output())?.[1],
    serve,
  );
  return { ...serve, url };
}
