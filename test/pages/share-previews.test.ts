import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbnails } from '../../src/pages/thumbnails/thumbnails.js';
import { pngPixel } from '../e2e/support/pixels.js';
import { gradientPng } from '../e2e/support/png.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

async function publishKidlisp(source: string): Promise<string> {
  const response = await postJson(`${app.url}/api/store-kidlisp`, { source });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body?.code as string;
}

const metaContent = (page: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(page)?.[1];

describe('share previews of a KidLisp item', () => {
  it('the page names a thumbnail the server draws with the runtime, and an oEmbed answer', async () => {
    const code = await publishKidlisp('(wipe navy)\n(ink yellow)\n(box 0 0 20 20)');
    const page = await (await fetch(`${app.url}/$${code}`)).text();
    expect(metaContent(page, 'og:title')).toBe(`$${code} · KidLisp`);
    const image = metaContent(page, 'og:image') ?? '';
    const { publicUrl } = app.services.config;
    expect(image).toBe(`${publicUrl}/thumbnail/${code}.png`);
    // The test reaches the service at its listening address; the page names it by its public URL.
    const thumbnail = await fetch(`${app.url}/thumbnail/${code}.png`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await thumbnail.arrayBuffer());
    expect(await pngPixel(png, 128, 128)).toEqual([0, 0, 128, 255]);
    expect(await pngPixel(png, 10, 10)).toEqual([255, 255, 0, 255]);

    // Cached per program: the same picture under the same tag, also for the same text elsewhere.
    const again = await fetch(`${app.url}/thumbnail/${code}.png`);
    expect(again.headers.get('etag')).toBe(thumbnail.headers.get('etag'));
    expect(Buffer.from(await again.arrayBuffer()).equals(png)).toBe(true);

    const discovery = /<link rel="alternate" type="application\/json\+oembed" href="([^"]*)"/.exec(
      page,
    )?.[1];
    expect(discovery).toBeDefined();
    const oembed = await fetch(
      (discovery as string).replaceAll('&amp;', '&').replace(publicUrl, app.url),
    );
    expect(oembed.status).toBe(200);
    expect(await oembed.json()).toMatchObject({
      version: '1.0',
      type: 'photo',
      url: image,
      width: 256,
      height: 256,
      title: `$${code} · KidLisp`,
    });
  });

  it('the thumbnail stamps the paintings the program names, read from storage', async () => {
    const slug = `2026/08/03/thumbnail-stamp-${Date.now()}.png`;
    await app.services.storage.put(slug, gradientPng(64, 64), 'image/png');
    const tracked = await postJson(`${app.url}/api/track-media`, { slug, ext: 'png' });
    expect(tracked.status).toBe(200);
    const code = await publishKidlisp(`(wipe navy)\n(bake)\n(paste #${tracked.body.code} 0 0)`);
    const thumbnail = await fetch(`${app.url}/thumbnail/${code}.png`);
    expect(thumbnail.status).toBe(200);
    const png = Buffer.from(await thumbnail.arrayBuffer());
    // The gradient's pixel (10, 10): red and green 10/64 of the way, blue 160; navy beyond it.
    expect(await pngPixel(png, 10, 10)).toEqual([40, 40, 160, 255]);
    expect(await pngPixel(png, 200, 200)).toEqual([0, 0, 128, 255]);
  });

  it('other items: og:image of a painting is its file; an unknown page is 404 to oEmbed', async () => {
    const missing = await fetch(
      `${app.url}/oembed?url=${encodeURIComponent(`${app.url}/$nosuchcode`)}`,
    );
    expect(missing.status).toBe(404);
    expect((await fetch(`${app.url}/oembed?format=xml&url=x`)).status).toBe(501);
    expect((await fetch(`${app.url}/thumbnail/nosuchcode.png`)).status).toBe(404);
  });
});

describe('the thumbnail renderer', () => {
  it('stops a render that overruns its time budget and draws again afterwards', async () => {
    const thumbnails = createThumbnails({ budgetMs: 1 });
    await expect(thumbnails.png({ source: '(wipe red)' })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    const patient = createThumbnails({ frames: 2 });
    const { png } = await patient.png({ source: '(wipe red)' });
    expect(await pngPixel(png, 5, 5)).toEqual([255, 0, 0, 255]);
  });

  it('draws a program that works hard every frame within the budget (the step limit ends each frame)', async () => {
    const { png } = await createThumbnails({ frames: 5 }).png({
      source: '(wipe blue)\n(repeat 10000 (repeat 10000 (point 1 1)))',
    });
    expect(await pngPixel(png, 100, 100)).toEqual([0, 0, 255, 255]);
  });
});
