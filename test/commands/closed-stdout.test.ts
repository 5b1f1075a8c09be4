import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_CLI, requireBuiltCli } from '../support/processes.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/burst-on-close.mjs', import.meta.url));
const DIST = dirname(dirname(BUILT_CLI));

/** Resolves once `stream` has carried `text`. */
const sawText = (stream: NodeJS.ReadableStream, text: string) =>
  new Promise<void>((resolve) => {
    let seen = '';
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) resolve();
    });
  });

/** Closes the reading end of the child's stdout, sends SIGTERM, and times the exit (at most 12 s). */
async function terminateWithoutReader(child: ChildProcess) {
  child.stdout?.destroy();
  const started = Date.now();
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 12_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(killer);
  return { code, signal, ms: Date.now() - started };
}

describe('logging never keeps the service from stopping', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('`publish-gateway serve` whose stdout reader has gone exits 0 within 10 s of SIGTERM', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'closed-stdout-'));
    const child = spawn(process.execPath, [requireBuiltCli(), 'serve'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await sawText(child.stdout as NodeJS.ReadableStream, 'publish-gateway listening');
    const exit = await terminateWithoutReader(child);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
  });

  it('lines still being written when the process exits are dropped, not retried for ever', async () => {
    requireBuiltCli();
    const child = spawn(process.execPath, [FIXTURE, DIST], { stdio: ['ignore', 'pipe', 'pipe'] });
    await sawText(child.stderr as NodeJS.ReadableStream, 'ready');
    const exit = await terminateWithoutReader(child);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
  });
});
