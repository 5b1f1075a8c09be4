import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const padded = (prefix: string, length: number) =>
  prefix + ' '.repeat(length - prefix.length - 1) + ';';

describe('exact limits', () => {
  it.each([
    ['/api/store-kidlisp', 50_000, (n: number) => padded('(wipe red)', n)],
    ['/api/store-clock', 10_000, (n: number) => 'c'.repeat(n)],
    [
      '/api/store-piece',
      100_000,
      (n: number) => `export function paint() {}\n//${'x'.repeat(n - 29)}`,
    ],
  ])('%s accepts %i characters and rejects one more', async (path, limit, make) => {
    const exact = make(limit);
    expect(exact).toHaveLength(limit);
    const accepted = await postJson(app.url + path, { source: exact });
    expect(accepted.status).toBe(201);
    const over = make(limit + 1);
    expect(over).toHaveLength(limit + 1);
    const rejected = await postJson(app.url + path, { source: over });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({ code: 'SOURCE_TOO_LONG' });
  });

  it('accepts a 30 s tape and rejects 30.01 s', async () => {
    const storage = app.service.services.storage;
    await storage.put('2026/03/04/long.zip', Buffer.from('zip'), 'application/zip');
    const accepted = await postJson(`${app.url}/api/track-media`, {
      slug: '2026/03/04/long.zip',
      ext: 'zip',
      metadata: { totalDuration: 30 },
    });
    expect(accepted.status).toBe(200);
    expect(await app.db.tapes.findOne({ code: accepted.body?.code })).toMatchObject({
      kind: 'zip',
      totalDuration: 30,
    });
    const rejected = await postJson(`${app.url}/api/track-media`, {
      slug: '2026/03/04/long.zip',
      ext: 'zip',
      metadata: { totalDuration: 30.01 },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({ code: 'TAPE_TOO_LONG', maxDuration: 30 });
  });

  it('rejects a duration on media that are not tapes, and negative or non-numeric durations', async () => {
    for (const body of [
      { slug: '2026/03/04/a.png', ext: 'png', metadata: { totalDuration: 3 } },
      { slug: '2026/03/04/a.zip', ext: 'zip', metadata: { totalDuration: -1 } },
      { slug: '2026/03/04/a.zip', ext: 'zip', metadata: { totalDuration: '12' } },
    ]) {
      const response = await postJson(`${app.url}/api/track-media`, body);
      expect(response.status).toBe(400);
      expect(response.body?.code).toBe('METADATA_INVALID');
    }
  });
});
