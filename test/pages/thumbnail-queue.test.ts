import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { createThumbnails } from '../../src/pages/thumbnails/thumbnails.js';
import { pngPixel } from '../e2e/support/pixels.js';
import { publish, useSeededApp } from '../items/fixtures.js';

/**
 * A program that draws 3,000 points a frame: alone it is drawn well within the budget (about 2 s
 * here, the worker's start included); 24 of them at once, each in its own worker, all overran it
 * (503) before renders took turns.
 */
const heavy = (n: number) => `(wipe ${n % 256} 0 0)\n(repeat 10 (repeat 300 (point 1 1)))`;

const fixture = useSeededApp();

async function sizeOf(png: Buffer) {
  const image = await loadImage(png);
  return [image.width, image.height];
}

describe('a grid of 24 heavy programs asked at once', () => {
  it('answers every request with a picture in time: drawn, or the placeholder (503) while the rest wait their turn', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 24; i++)
      codes.push(await publish(fixture.http, '/api/store-kidlisp', { source: heavy(i) }));
    const started = Date.now();
    const answers = await Promise.all(
      codes.map(async (code) => {
        const response = await fetch(`${fixture.app.url}/thumbnail/${code}.png`, {
          headers: { accept: 'image/avif,image/webp,image/png,image/*,*/*;q=0.8' },
        });
        return { code, response, png: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    // Nobody waits for the whole queue: each answer comes within the wait (5 s budget + 1 s).
    expect(Date.now() - started).toBeLessThan(15_000);
    for (const { response, png } of answers) {
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(await sizeOf(png)).toEqual([256, 256]);
      if (response.status !== 200) {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(response.headers.get('cache-control')).toBe('no-store');
        // The placeholder: grey, not a program's red.
        expect(await pngPixel(png, 10, 10)).toEqual([0x2b, 0x2b, 0x33, 255]);
      }
    }
    // A client that asks for JSON gets the contract's error, not a picture.
    const waiting = answers.find((answer) => answer.response.status === 503);
    if (waiting) {
      const asJson = await fetch(`${fixture.app.url}/thumbnail/${waiting.code}.png`, {
        headers: { accept: 'application/json' },
      });
      expect([200, 503]).toContain(asJson.status);
      if (asJson.status === 503) expect(await asJson.json()).toMatchObject({ code: 'TIMEOUT' });
    }
  }, 180_000);
});

describe('the thumbnail queue', () => {
  it('draws one program at a time; a render goes on after its request stopped waiting, once, and is kept', async () => {
    const thumbnails = createThumbnails({ concurrency: 1, budgetMs: 60_000, frames: 1 });
    expect(await thumbnails.within({ source: '(wipe red)' }, 5)).toBeNull();
    // Queued behind the red one: not drawn yet however light it is.
    expect(await thumbnails.within({ source: '(wipe lime)' }, 5)).toBeNull();
    const lime = await thumbnails.png({ source: '(wipe lime)' });
    expect(await pngPixel(lime.png, 5, 5)).toEqual([0, 255, 0, 255]);
    // The same picture object: the waiting requests and this one shared one render.
    expect((await thumbnails.within({ source: '(wipe lime)' }, 5))?.png).toBe(lime.png);
    expect((await thumbnails.png({ source: '(wipe red)' })).png).toBe(
      (await thumbnails.png({ source: '(wipe red)' })).png,
    );
  }, 120_000);

  it('a render that found no turn in time (BUSY) is forgotten; one over budget is remembered', async () => {
    const thumbnails = createThumbnails({ concurrency: 1, queueWaitMs: 10, frames: 1 });
    const first = thumbnails.png({ source: '(wipe lime)' });
    await expect(thumbnails.png({ source: '(wipe red)' })).rejects.toMatchObject({ code: 'BUSY' });
    await first;
    const { png } = await thumbnails.png({ source: '(wipe red)' });
    expect(await pngPixel(png, 5, 5)).toEqual([255, 0, 0, 255]);

    const hurried = createThumbnails({ budgetMs: 1 });
    await expect(hurried.png({ source: '(wipe blue)' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const asked = Date.now();
    await expect(hurried.png({ source: '(wipe blue)' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - asked).toBeLessThan(50);
  }, 60_000);
});
