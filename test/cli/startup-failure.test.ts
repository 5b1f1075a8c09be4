import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/processes.js';

const dir = await mkdtemp(join(tmpdir(), 'startup-failure-test-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('a start that fails once its database is up says why in one line and exits 1', async () => {
  // The port is taken: the service fails after opening its embedded database in its worker.
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as { port: number };
  try {
    const started = performance.now();
    const run = await runCli(['serve'], {
      DATA_DIR: join(dir, 'data'),
      PORT: String(port),
      LOG_LEVEL: 'silent',
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^publish-gateway did not start: .*EADDRINUSE/);
    // It exits once its database is closed; it does not wait for anything else.
    expect(performance.now() - started).toBeLessThan(30_000);
  } finally {
    taken.close();
  }
}, 60_000);
