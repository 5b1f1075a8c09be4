import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import {
  canvasSurface,
  createKidlispRuntime,
  type KidlispRuntime,
} from '../../../../src/domain/kidlisp/runtime/index.js';

/** The real adapter on a real 2D canvas (the one server-side thumbnails will use). */
function onCanvas(source: string, size = 64) {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const runtime: KidlispRuntime = createKidlispRuntime(source, {
    surface: canvasSurface(ctx, size, size),
    seed: 1,
    loadEmbed: async (code) => (code === 'abc' ? '(wipe lime)' : null),
    createSurface: (width, height) =>
      canvasSurface(createCanvas(width, height).getContext('2d'), width, height),
  });
  const pixel = (x: number, y: number) => [...ctx.getImageData(x, y, 1, 1).data];
  return { runtime, pixel, ctx };
}

describe('canvasSurface on @napi-rs/canvas', () => {
  it('(wipe navy) fills navy; (ink red) (box 0 0 20 20) is red at (10, 10)', () => {
    const navy = onCanvas('(wipe navy)');
    navy.runtime.frame({ frame: 0, ms: 0 });
    expect(navy.pixel(0, 0)).toEqual([0, 0, 128, 255]);
    expect(navy.pixel(63, 63)).toEqual([0, 0, 128, 255]);
    const box = onCanvas('(ink red) (box 0 0 20 20)');
    box.runtime.frame({ frame: 0, ms: 0 });
    expect(box.pixel(10, 10)).toEqual([255, 0, 0, 255]);
    expect(box.pixel(20, 20)).toEqual([0, 0, 0, 255]);
  });

  it('a timing program changes its pixels between two frames', () => {
    const { runtime, pixel } = onCanvas('(1s (wipe (... red blue)))');
    runtime.frame({ frame: 0, ms: 0 });
    expect(pixel(5, 5)).toEqual([255, 0, 0, 255]);
    runtime.frame({ frame: 60, ms: 1000 });
    expect(pixel(5, 5)).toEqual([0, 0, 255, 255]);
  });

  it('draws straight lines on exact pixels and erases to transparent', () => {
    const { runtime, pixel } = onCanvas(
      '(wipe black) (ink red) (line 0 5 63 5) (ink erase) (box 40 40 10 10)',
    );
    runtime.frame({ frame: 0, ms: 0 });
    expect(pixel(0, 5)).toEqual([255, 0, 0, 255]);
    expect(pixel(63, 5)).toEqual([255, 0, 0, 255]);
    expect(pixel(0, 6)).toEqual([0, 0, 0, 255]);
    expect(pixel(45, 45)[3]).toBe(0);
  });

  it('paints fades, outlines, circles and text through the canvas', () => {
    const { runtime, pixel } = onCanvas(
      'fade:red-blue\n(ink white) (circle 32 32 8) (box 2 40 20 20 "outline") (write "M" 40 2 nil 2)',
    );
    runtime.frame({ frame: 0, ms: 0 });
    expect(pixel(0, 2)[0]).toBeGreaterThan(230);
    expect(pixel(63, 2)[2]).toBeGreaterThan(230);
    expect(pixel(32, 32)).toEqual([255, 255, 255, 255]);
    expect(pixel(2, 50)).toEqual([255, 255, 255, 255]);
    expect(pixel(12, 50)).not.toEqual([255, 255, 255, 255]);
    const text = [...Array(12).keys()].flatMap((dy) =>
      [...Array(12).keys()].map((dx) => pixel(40 + dx, 2 + dy)),
    );
    expect(text.some((p) => p[0] === 255 && p[1] === 255 && p[2] === 255)).toBe(true);
  });

  it('pixel transforms and embeds go through getImageData and putImageData', async () => {
    const scrolled = onCanvas('(once (wipe black) (ink red) (box 0 0 1 1)) (scroll 3 4)');
    scrolled.runtime.frame({ frame: 0, ms: 0 });
    expect(scrolled.pixel(3, 4)).toEqual([255, 0, 0, 255]);
    const embedded = onCanvas('(wipe navy) ($abc 0 0 16 16)');
    embedded.runtime.frame({ frame: 0, ms: 0 });
    await embedded.runtime.idle();
    embedded.runtime.frame({ frame: 1, ms: 16 });
    expect(embedded.pixel(8, 8)).toEqual([0, 255, 0, 255]);
    expect(embedded.pixel(30, 30)).toEqual([0, 0, 128, 255]);
  });
});
