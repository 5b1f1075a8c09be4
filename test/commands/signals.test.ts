import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess } from '../support/processes.js';

describe('signals while the service stops', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('SIGTERM then SIGINT (a supervisor and a Ctrl+C) close the service once and exit 0', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'signals-'));
    const serve = await startServeProcess({ DATA_DIR: dataDir });
    const exited = once(serve.child, 'exit');
    serve.child.kill('SIGTERM');
    serve.child.kill('SIGINT');
    const killer = setTimeout(() => serve.child.kill('SIGKILL'), 12_000);
    const [code, signal] = await exited;
    clearTimeout(killer);

    const messages = serve
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(messages.filter((msg) => msg === 'stopped')).toHaveLength(1);
    expect(messages).toContain('already shutting down');
    expect(messages).not.toContain('shutdown failed');
  });
});
