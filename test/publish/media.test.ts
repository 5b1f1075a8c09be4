import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const storage = app.service.services.storage;
  await storage.put('2026/05/06/sunset.png', Buffer.from('png'), 'image/png');
  await storage.put('2026/05/06/walk.mp4', Buffer.from('mp4'), 'video/mp4');
  await storage.put('2026/05/06/tool.lua', Buffer.from('print(1)'), 'text/plain');
});
afterAll(() => app.close());

const track = (body: unknown) => postJson(`${app.url}/api/track-media`, body);

describe('track-media', () => {
  it.each([
    ['a parent segment', '2026/05/../sunset.png'],
    ['an absolute path', '/2026/05/06/sunset.png'],
    ['a mismatched extension', '2026/05/06/sunset.jpg'],
    ['a control character', '2026/05/06/sun\u0000set.png'],
    ['a newline', '2026/05/06/sun\nset.png'],
    ['no date', 'sunset.png'],
  ])('rejects a slug with %s', async (_label, slug) => {
    const response = await track({ slug, ext: 'png' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'SLUG_INVALID' });
  });

  it('gives the same code when the same slug is registered twice, in the right collection', async () => {
    const first = await track({ slug: '2026/05/06/sunset.png', ext: 'png' });
    const again = await track({ slug: '2026/05/06/sunset.png', ext: 'png' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ slug: '2026/05/06/sunset.png', cached: false });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, cached: true });
    expect(await app.db.paintings.countDocuments({ slug: '2026/05/06/sunset.png' })).toBe(1);
  });

  it('files tapes with their kind and Lua pieces with their ext', async () => {
    const tape = await track({
      slug: '2026/05/06/walk.mp4',
      ext: 'mp4',
      metadata: { totalDuration: 12.5 },
    });
    const lua = await track({ slug: '2026/05/06/tool.lua', ext: 'lua' });
    expect(await app.db.tapes.findOne({ code: tape.body?.code })).toMatchObject({
      kind: 'mp4',
      totalDuration: 12.5,
    });
    expect(await app.db.pieces.findOne({ code: lua.body?.code })).toMatchObject({
      ext: 'lua',
      slug: '2026/05/06/tool.lua',
    });
  });

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
