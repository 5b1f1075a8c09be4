import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const track = (body: unknown) => postJson(`${app.url}/api/track-media`, body);

// The operation's rules are in test/operations/publish/track-media.test.ts; here, the routes.
describe('track-media', () => {
  it('serves the same operation at /api/track-tape', async () => {
    const slug = '2026/05/06/alias.mp4';
    await app.service.services.storage.put(slug, Buffer.from('mp4 alias'), 'video/mp4');
    const viaTape = await postJson(`${app.url}/api/track-tape`, {
      slug,
      ext: 'mp4',
      metadata: { totalDuration: 3 },
    });
    expect(viaTape.status).toBe(200);
    expect(viaTape.body).toMatchObject({
      slug,
      cached: false,
      code: expect.any(String),
      url: expect.any(String),
    });
    const viaMedia = await track({ slug, ext: 'mp4', metadata: { totalDuration: 3 } });
    expect(viaMedia.status).toBe(200);
    expect(viaMedia.body).toEqual({ ...viaTape.body, cached: true });
    const tapeAgain = await postJson(`${app.url}/api/track-tape`, {
      slug,
      ext: 'mp4',
      metadata: { totalDuration: 3 },
    });
    expect(tapeAgain.status).toBe(200);
    expect(tapeAgain.body).toEqual({ ...viaTape.body, cached: true });
    expect(await app.db.tapes.countDocuments({ slug })).toBe(1);
    expect(await app.db.tapes.findOne({ code: viaTape.body?.code })).toMatchObject({
      kind: 'mp4',
      totalDuration: 3,
    });
  });

  it('registers concurrent requests for one slug once', async () => {
    await app.service.services.storage.put('2026/05/07/race.png', Buffer.from('png'), 'image/png');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => track({ slug: '2026/05/07/race.png', ext: 'png' })),
    );
    expect(new Set(answers.map((answer) => answer.body?.code)).size).toBe(1);
    expect(await app.db.paintings.countDocuments({ slug: '2026/05/07/race.png' })).toBe(1);
  });
});
