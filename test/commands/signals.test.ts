import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../support/processes.js';

describe('signals while the service stops', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('SIGTERM then SIGINT (a supervisor and a Ctrl+C) close the service once and exit 0', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'signals-'));
    const child = spawn(process.execPath, [requireBuiltCli(), 'serve'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const listening = new Promise<void>((resolve) =>
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('publish-gateway listening')) resolve();
      }),
    );
    await listening;
    child.kill('SIGTERM');
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 12_000);
    const [code, signal] = await once(child, 'exit');
    clearTimeout(killer);

    const messages = output
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(messages.filter((msg) => msg === 'stopped')).toHaveLength(1);
    expect(messages).toContain('already shutting down');
    expect(messages).not.toContain('shutdown failed');
  });
});
