/**
 * `bake` + `stamp #code` in Chromium on the service's own KidLisp page: a painting published
 * through the service (its PNG in storage, then POST /api/track-media) is fetched by the player
 * from `/<code>.png`, decoded once and stamped on a bake layer; a painting code with no painting
 * is named in the notice while the rest of the program draws.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';
import { gradientPng } from './support/png.js';

const session = useAppAndBrowser();

async function publish(path: string, body: unknown): Promise<string> {
  const response = await postJson(`${session.app.url}${path}`, body);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body?.code as string;
}

/** Publishes a 64x64 gradient PNG as a painting the way clients do: upload, then track. */
async function publishPainting(): Promise<string> {
  const slug = `2026/08/03/e2e-stamp-${Date.now()}.png`;
  await session.app.services.storage.put(slug, gradientPng(64, 64), 'image/png');
  return publish('/api/track-media', { slug, ext: 'png' });
}

/** The canvas pixel at (x, y) as the player drew it. */
const pixelAt = (page: Page, x: number, y: number) =>
  page
    .locator('canvas.player')
    .evaluate(
      (canvas: HTMLCanvasElement, [px, py]) =>
        Array.from(
          (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(px, py, 1, 1).data,
        ),
      [x, y] as const,
    );

describe('KidLisp paintings in the browser', () => {
  it('bake + stamp draws a published painting over the baked layer', async () => {
    const painting = await publishPainting();
    const source = `(wipe navy)\n(ink yellow) (box 0 0 40 40)\n(bake)\n(stamp #${painting} 128 128 2)`;
    const code = await publish('/api/store-kidlisp', { source });
    const page = await session.browser.newPage();
    const pngRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.png')) pngRequests.push(new URL(request.url()).pathname);
    });
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    // The gradient's pixel (32, 32), at the stamp's center: red and green half way, blue 160.
    await expect
      .poll(() => pixelAt(page, 128, 128), { timeout: 15_000 })
      .toEqual([128, 128, 160, 255]);
    expect(await pixelAt(page, 10, 10)).toEqual([255, 255, 0, 255]);
    expect(await pixelAt(page, 250, 250)).toEqual([0, 0, 128, 255]);
    // Fetched once, from the painting's raw file, however many frames stamp it.
    expect(pngRequests.filter((path) => path === `/${painting}.png`)).toEqual([`/${painting}.png`]);
    expect(await page.locator('[data-kidlisp-notice]').isHidden()).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-bake-stamp-painting'), fullPage: true });
  });

  it('a painting code that does not exist is named in the notice, and the rest draws', async () => {
    const source = '(wipe navy)\n(bake)\n#nope9\n(ink lime) (box 0 0 20 20)';
    const code = await publish('/api/store-kidlisp', { source });
    const page = await session.browser.newPage();
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    const notice = page.locator('[data-kidlisp-notice]');
    await expect
      .poll(() => notice.innerText(), { timeout: 15_000 })
      .toContain('#nope9: no painting is published under this code; it is not drawn');
    expect(await pixelAt(page, 5, 5)).toEqual([0, 255, 0, 255]);
    expect(await pixelAt(page, 100, 100)).toEqual([0, 0, 128, 255]);
    await page.screenshot({ path: screenshotPath('kidlisp-missing-painting'), fullPage: true });
  });
});
