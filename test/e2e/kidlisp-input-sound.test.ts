/**
 * The visitor's input and sound on the real KidLisp page (issue 24): a click on the canvas runs
 * the program's `tap`, a key does too, and a melody sounds only once the visitor has clicked.
 * Chromium runs with its default autoplay policy, so the gesture rule is the browser's own.
 */
import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';
import { canvasPixel, near, type RGBA } from './support/pixels.js';

const session = useAppAndBrowser({}, { bundles: true });

const NAVY: RGBA = [0, 0, 128, 255];
const YELLOW: RGBA = [255, 255, 0, 255];
const CANVAS = 'canvas[data-kidlisp]';

async function openKidlisp(source: string) {
  const response = await postJson(`${session.app.url}/api/store-kidlisp`, { source });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  const page = await session.browser.newPage();
  expect((await page.goto(`${session.app.url}/$${response.body.code}`))?.status()).toBe(200);
  await expect.poll(() => page.locator(CANVAS).getAttribute('data-kidlisp-drawn')).not.toBeNull();
  return page;
}

/** Where a canvas pixel is on the page, for a real mouse click. */
async function pagePoint(page: Awaited<ReturnType<typeof openKidlisp>>, x: number, y: number) {
  const box = await page.locator(CANVAS).boundingBox();
  const size = await page.locator(CANVAS).evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
  if (box === null) throw new Error('the canvas has no box');
  return {
    x: box.x + ((x + 0.5) / (size[0] ?? 1)) * box.width,
    y: box.y + ((y + 0.5) / (size[1] ?? 1)) * box.height,
  };
}

describe('the visitor taps the picture', () => {
  it('a click runs (tap ...): the square turns yellow where it was navy, at the pen', async () => {
    const page = await openKidlisp(
      '(def hit 0)\n(wipe navy)\n(tap (now hit 1))\n(if hit (ink yellow) (box (- penx 8) (- peny 8) 16 16))',
    );
    const at = await pagePoint(page, 60, 40);
    expect(near(await canvasPixel(page, CANVAS, 60, 40), NAVY)).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-tap-before') });
    await page.mouse.click(at.x, at.y);
    await expect.poll(async () => near(await canvasPixel(page, CANVAS, 60, 40), YELLOW)).toBe(true);
    expect(near(await canvasPixel(page, CANVAS, 120, 120), NAVY)).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-tap-after') });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  it('Enter on the focused canvas presses the pen as a tap does', async () => {
    const page = await openKidlisp(
      '(def hit 0)\n(wipe navy)\n(tap (now hit 1))\n(if hit (wipe yellow))',
    );
    await page.locator(CANVAS).focus();
    expect(near(await canvasPixel(page, CANVAS, 5, 5), NAVY)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(async () => near(await canvasPixel(page, CANVAS, 5, 5), YELLOW)).toBe(true);
    await page.close();
  });
});

describe('sound starts with the visitor', () => {
  it('a melody: no AudioContext before the click, a running one after, and notes played', async () => {
    const page = await openKidlisp('(wipe navy)\n(melody c.d.e.f.g.a.b.)');
    const canvas = page.locator(CANVAS);
    // The program has asked for notes for a while: nothing may sound before a gesture.
    await page.waitForTimeout(600);
    expect(await canvas.getAttribute('data-kidlisp-audio')).toBe('none');
    expect(await canvas.getAttribute('data-kidlisp-notes')).toBe('0');
    const at = await pagePoint(page, 10, 10);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => canvas.getAttribute('data-kidlisp-audio')).toBe('running');
    await expect
      .poll(async () => Number(await canvas.getAttribute('data-kidlisp-notes')), { timeout: 5000 })
      .toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: screenshotPath('kidlisp-melody-after-click') });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  it('a program that reads mic gets a button that asks for the microphone; mic reads 0 until then', async () => {
    const page = await openKidlisp('(wipe navy)\n(ink red)\n(box 0 0 (+ 1 (* mic 100)) 4)');
    const ask = page.getByRole('button', { name: 'Let this work hear the microphone' });
    await expect.poll(() => ask.isVisible()).toBe(true);
    expect(near(await canvasPixel(page, CANVAS, 0, 0), [255, 0, 0, 255])).toBe(true);
    expect(near(await canvasPixel(page, CANVAS, 1, 0), NAVY)).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-mic-button') });
    await page.close();
  });
});
