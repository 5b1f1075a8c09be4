/**
 * The pixel words through the real player page (issue 24): a published program's `/$code` page
 * in Chromium fills with `flood`, and a `scroll` under a `mask` moves only the mask's pixels.
 */
import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';
import { canvasPixel, near, type RGBA } from './support/pixels.js';

const session = useAppAndBrowser({}, { bundles: true });

const CANVAS = 'canvas[data-kidlisp]';
const RED: RGBA = [255, 0, 0, 255];
const BLUE: RGBA = [0, 0, 255, 255];
const LIME: RGBA = [0, 255, 0, 255];
const BLACK: RGBA = [0, 0, 0, 255];
const WHITE: RGBA = [255, 255, 255, 255];

async function openKidlisp(source: string) {
  const response = await postJson(`${session.app.url}/api/store-kidlisp`, { source });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  const page = await session.browser.newPage();
  expect((await page.goto(`${session.app.url}/$${response.body?.code as string}`))?.status()).toBe(
    200,
  );
  return page;
}

describe('the pixel words on a KidLisp page', () => {
  it('flood fills the area of one color around a point and stops at its outline', async () => {
    const page = await openKidlisp(
      '(wipe white)\n(ink black)\n(circle 128 128 60 outline)\n(line 0 40 255 40)\n(flood 128 128 red)\n(flood 5 5 blue)\n(flood 250 250 lime)',
    );
    const at = (x: number, y: number) => canvasPixel(page, CANVAS, x, y);
    await expect.poll(async () => near(await at(128, 128), RED)).toBe(true);
    expect(near(await at(128, 70), RED)).toBe(true); // just inside the outline, at the top
    expect(near(await at(5, 5), BLUE)).toBe(true); // above the line
    expect(near(await at(250, 250), LIME)).toBe(true); // outside the circle, below the line
    expect(near(await at(20, 128), LIME)).toBe(true);
    expect(near(await at(128, 40), BLACK)).toBe(true); // the line itself stays
    expect(near(await at(68, 128), BLACK)).toBe(true); // and the outline
    expect([await at(5, 5), await at(250, 250)].some((pixel) => near(pixel, WHITE))).toBe(false);
    expect(await page.locator('[data-kidlisp-notice]').isHidden()).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-flood'), fullPage: true });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  it('a masked scroll moves only the pixels inside the mask', async () => {
    // Yellow and navy stripes 4 pixels wide; the mask is 64..191 on both axes.
    const page = await openKidlisp(
      '(once (wipe navy) (ink yellow) (repeat 32 i (box (* i 8) 0 4 256)))\n(mask 64 64 128 128) (scroll 1 0) (unmask)',
    );
    const row = async (y: number) =>
      page.evaluate(
        ([selector, y]) => {
          const canvas = document.querySelector(selector as string) as HTMLCanvasElement;
          const data = canvas.getContext('2d')?.getImageData(0, y as number, 256, 1).data;
          return Array.from(data ?? []).filter((_, index) => index % 4 === 2); // blue channel
        },
        [CANVAS, y] as const,
      );
    await expect.poll(async () => (await canvasPixel(page, CANVAS, 0, 0))[3]).toBe(255);
    const first = { inside: await row(128), above: await row(32) };
    // Inside the mask the stripes move; the same row outside the mask does not.
    await expect
      .poll(async () => (await row(128)).slice(64, 192).join())
      .not.toBe(first.inside.slice(64, 192).join());
    const later = { inside: await row(128), above: await row(32) };
    expect(later.above).toEqual(first.above);
    expect(later.inside.slice(0, 64)).toEqual(first.inside.slice(0, 64));
    expect(later.inside.slice(192)).toEqual(first.inside.slice(192));
    // What moved stayed stripes (it wrapped inside the mask): half navy, half yellow.
    const navy = later.inside.slice(64, 192).filter((blue) => blue > 64).length;
    expect(navy).toBe(64);
    await page.screenshot({ path: screenshotPath('kidlisp-masked-scroll'), fullPage: true });
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
