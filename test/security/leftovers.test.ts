import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { LEFTOVER_AGE_MS, type RunningService, startService } from '../../src/service.js';
import { postJson, startTestApp, type TestApp } from '../support/app.js';

const source = (shade: number) => `export function paint({ wipe }) { wipe(${shade}); }`;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

let app: TestApp;
let restarted: RunningService;
const folder = () => join(app.dataDir, 'storage', '2026', '08', '03');

beforeAll(async () => {
  app = await startTestApp();
  // What `kill -9` between claiming a code and writing its record leaves, and a claim in progress.
  await app.db.codes.insertMany([
    { _id: 'crash', type: 'piece', when: minutesAgo(30) },
    { _id: 'in-flight', type: 'piece', when: new Date() },
  ]);
  const kept = await postJson(`${app.url}/api/store-piece`, { source: source(0), name: 'kept' });
  expect(kept.body?.code).toBe('kept');
  await app.db.codes.updateOne({ _id: 'kept' }, { $set: { when: minutesAgo(30) } });
  // Partial writes: one from a killed process, one still being written.
  await mkdir(folder(), { recursive: true });
  for (const [name, age] of [
    ['sunset.png.0123456789ab.tmp', 30],
    ['dawn.png.ba9876543210.tmp', 0],
  ] as const) {
    await writeFile(join(folder(), name), 'partial');
    const when = minutesAgo(age);
    await utimes(join(folder(), name), when, when);
  }
  expect(
    (await postJson(`${app.url}/api/store-piece`, { source: source(1), name: 'crash' })).body?.code,
  ).toBe('crash-2');
  await app.db.pieces.deleteOne({ code: 'crash-2' });
  await app.db.codes.deleteOne({ _id: 'crash-2' });

  // The service starts again over the same database and data directory.
  await app.service.close();
  restarted = await startService(app.services.config, createLogger('silent'));
});
afterAll(async () => {
  await restarted?.close();
  await app.close();
});

describe('start-up sweeps what an interrupted publish left', () => {
  it('frees a code claimed long ago whose record was never written', async () => {
    const again = await postJson(`${restarted.url}/api/store-piece`, {
      source: source(1),
      name: 'crash',
    });
    expect(again.status).toBe(201);
    expect(again.body?.code).toBe('crash');
  });

  it('keeps young claims and claims with their record', async () => {
    expect(
      await restarted.services.db.codes.countDocuments({ _id: { $in: ['in-flight', 'kept'] } }),
    ).toBe(2);
    const repeat = await postJson(`${restarted.url}/api/store-piece`, {
      source: source(2),
      name: 'kept',
    });
    expect(repeat.body?.code).toBe('kept-2');
  });

  it(`removes storage temporaries older than ${LEFTOVER_AGE_MS / 60_000} minutes, and only those`, async () => {
    expect(await readdir(folder())).toEqual(['dawn.png.ba9876543210.tmp']);
  });
});
