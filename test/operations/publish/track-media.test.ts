import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperation } from '../../../src/operations/operation.js';
import { trackMedia } from '../../../src/operations/publish/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
  const storage = app.services.storage;
  await storage.put('2026/05/06/sunset.png', Buffer.from('png'), 'image/png');
  await storage.put('2026/05/06/walk.mp4', Buffer.from('mp4'), 'video/mp4');
  await storage.put('2026/05/06/tool.lua', Buffer.from('print(1)'), 'text/plain');
  await storage.put('2026/03/04/long.zip', Buffer.from('zip'), 'application/zip');
});
afterAll(() => app.close());

const track = async (input: unknown) =>
  runOperation(trackMedia, await testContext(app.services), input);

describe('trackMedia', () => {
  it('gives the same code when the same slug is registered twice, in the right collection', async () => {
    const first = await track({ slug: '2026/05/06/sunset.png', ext: 'png' });
    expect(first).toEqual({
      code: expect.stringMatching(/^[a-z2-9]{3,}$/),
      slug: '2026/05/06/sunset.png',
      url: `https://art.example/${first.code}`,
      cached: false,
    });
    expect(await track({ slug: '2026/05/06/sunset.png', ext: 'png' })).toEqual({
      ...first,
      cached: true,
    });
    expect(await app.db.paintings.countDocuments({ slug: '2026/05/06/sunset.png' })).toBe(1);
  });

  it('files tapes with their format and Lua pieces with their ext', async () => {
    const tape = await track({
      slug: '2026/05/06/walk.mp4',
      ext: 'mp4',
      metadata: { totalDuration: 12.5 },
    });
    const lua = await track({ slug: '2026/05/06/tool.lua', ext: 'lua' });
    expect(await app.db.tapes.findOne({ code: tape.code })).toMatchObject({
      kind: 'mp4',
      totalDuration: 12.5,
    });
    expect(await app.db.pieces.findOne({ code: lua.code })).toMatchObject({
      ext: 'lua',
      slug: '2026/05/06/tool.lua',
    });
  });

  it('accepts a 30 s tape and refuses 30.01 s with TAPE_TOO_LONG and maxDuration', async () => {
    const accepted = await track({
      slug: '2026/03/04/long.zip',
      ext: 'zip',
      metadata: { totalDuration: 30 },
    });
    expect(await app.db.tapes.findOne({ code: accepted.code })).toMatchObject({
      kind: 'zip',
      totalDuration: 30,
    });
    const error = await appErrorOf(
      track({ slug: '2026/03/04/long.zip', ext: 'zip', metadata: { totalDuration: 30.01 } }),
    );
    expect(error.code).toBe('TAPE_TOO_LONG');
    expect(error.details).toEqual({ maxDuration: 30 });
  });

  it.each([
    ['a parent segment', '2026/05/../sunset.png'],
    ['an absolute path', '/2026/05/06/sunset.png'],
    ['a mismatched extension', '2026/05/06/sunset.jpg'],
    ['a control character', '2026/05/06/sun\u0000set.png'],
    ['a newline', '2026/05/06/sun\nset.png'],
    ['no date', 'sunset.png'],
    ['over 300 characters', `2026/05/06/${'s'.repeat(290)}.png`],
  ])('refuses a slug with %s: SLUG_INVALID', async (_label, slug) => {
    expect((await appErrorOf(track({ slug, ext: 'png' }))).code).toBe('SLUG_INVALID');
  });

  it.each([
    [{ slug: '2026/03/04/a.png', ext: 'png', metadata: { totalDuration: 3 } }, 'METADATA_INVALID'],
    [{ slug: '2026/03/04/a.zip', ext: 'zip', metadata: { totalDuration: -1 } }, 'METADATA_INVALID'],
    [
      { slug: '2026/03/04/a.zip', ext: 'zip', metadata: { totalDuration: '12' } },
      'METADATA_INVALID',
    ],
    [{ slug: '2026/01/02/x.gif', ext: 'gif' }, 'EXT_UNSUPPORTED'],
    [{ ext: 'png' }, 'SLUG_INVALID'],
  ])('refuses %j with %s', async (input, code) => {
    expect((await appErrorOf(track(input))).code).toBe(code);
  });

  it('refuses a slug with no object in storage with MEDIA_NOT_FOUND (404), registering nothing', async () => {
    const error = await appErrorOf(track({ slug: '2026/01/02/absent.png', ext: 'png' }));
    expect(error).toMatchObject({ code: 'MEDIA_NOT_FOUND', status: 404 });
    expect(await app.db.paintings.countDocuments({ slug: '2026/01/02/absent.png' })).toBe(0);
  });
});
