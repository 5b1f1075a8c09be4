import { describe, expect, it } from 'vitest';
import type { RGBA } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from './helpers.js';
import type { PixelSurface } from './pixel-surface.js';
import { BLACK, NAVY, RED, WHITE } from './pixel-surface.js';

const BLUE: RGBA = [0, 0, 255, 255];
const LIME: RGBA = [0, 255, 0, 255];

describe('backdrop and wipe', () => {
  it('(wipe navy) fills the whole screen navy', () => {
    const { surface } = run('(wipe navy)');
    expect(surface.count(NAVY)).toBe(64 * 64);
  });

  it('a leading color word, one-word list or RGB triple sets the backdrop', () => {
    expect(run('salmon\n(ink red)').surface.pixel(5, 5)).toEqual([250, 128, 114, 255]);
    expect(run('(beige)').surface.pixel(60, 60)).toEqual([245, 245, 220, 255]);
    expect(run('0 128 0\n(ink red)').surface.pixel(0, 0)).toEqual([0, 128, 0, 255]);
    expect(run('c2').surface.pixel(1, 1)).toEqual(RED);
  });

  it('paints the backdrop once, so later drawing accumulates across frames', () => {
    const { surface } = run('red\n(ink blue)\n(box frame 0 1 1)', { frames: 3 });
    expect([0, 1, 2].map((x) => surface.pixel(x, 0))).toEqual([BLUE, BLUE, BLUE]);
    expect(surface.pixel(3, 0)).toEqual(RED);
  });

  it('starts from black when the program sets no background', () => {
    expect(run('(ink red) (box 0 0 20 20)').surface.pixel(30, 30)).toEqual(BLACK);
  });

  it('wipes with grey, RGB and RGBA numbers; the screen takes the alpha as it is', () => {
    expect(run('(wipe 100)').surface.pixel(3, 3)).toEqual([100, 100, 100, 255]);
    expect(run('(wipe 0 255 0)').surface.pixel(3, 3)).toEqual(LIME);
    expect(run('(wipe 255 0 0 128)').surface.pixel(3, 3)).toEqual([255, 0, 0, 128]);
  });

  it('backdrop paints only on its first run', () => {
    const { surface } = run('(backdrop red)\n(ink blue)\n(box frame 0 1 1)', { frames: 2 });
    expect(surface.pixel(0, 0)).toEqual(BLUE);
    expect(surface.pixel(1, 0)).toEqual(BLUE);
  });

  it('coat lays a half-transparent color over the screen (alpha 128 unless given)', () => {
    // The reference's blend over an opaque pixel: ((a + 1) * src + (255 - a) * dst) >> 8.
    expect(run('(wipe white) (coat black)').surface.pixel(0, 0)).toEqual([126, 126, 126, 255]);
    expect(run('(wipe white) (coat black 255)').surface.pixel(0, 0)).toEqual(BLACK);
  });

  it('a fade backdrop runs from its first color on the left to its last on the right', () => {
    const { surface } = run('fade:red-blue');
    const [lr, , lb] = surface.pixel(0, 32);
    const [rr, , rb] = surface.pixel(63, 32);
    expect(lr).toBeGreaterThan(240);
    expect(lb).toBeLessThan(15);
    expect(rb).toBeGreaterThan(240);
    expect(rr).toBeLessThan(15);
  });
});

describe('ink', () => {
  it('(ink red) (box 0 0 20 20) gives red at (10, 10)', () => {
    expect(run('(ink red) (box 0 0 20 20)').surface.pixel(10, 10)).toEqual(RED);
  });

  it('takes RGB, RGBA and a name with alpha', () => {
    expect(run('(ink 0 255 0) (box 0 0 9 9)').surface.pixel(4, 4)).toEqual(LIME);
    expect(run('(ink 255 0 0 128) (box 0 0 9 9)').surface.pixel(4, 4)).toEqual([128, 0, 0, 255]);
    expect(run('(ink red 128) (box 0 0 9 9)').surface.pixel(4, 4)).toEqual([128, 0, 0, 255]);
    expect(run('(ink "lime") (box 0 0 9 9)').surface.pixel(4, 4)).toEqual(LIME);
  });

  it('rainbow advances one color per shape drawn', () => {
    const { surface } = run('(repeat 8 i (ink rainbow) (box i 0 1 1))');
    expect(surface.pixel(0, 0)).toEqual(RED);
    expect(surface.pixel(1, 0)).toEqual([255, 127, 0, 255]);
    expect(surface.pixel(4, 0)).toEqual(BLUE);
    expect(surface.pixel(7, 0)).toEqual(RED);
  });

  it('zebra alternates black and white per shape', () => {
    const { surface } = run('(wipe red) (ink zebra) (repeat 4 i (box i 0 1 1))');
    expect([0, 1, 2, 3].map((x) => surface.pixel(x, 0))).toEqual([BLACK, WHITE, BLACK, WHITE]);
  });

  it('a fade ink paints shapes with the screen-wide gradient', () => {
    const { surface } = run('(ink fade:red-blue:vertical) (box 0 0 w h)');
    expect(surface.pixel(10, 0)[0]).toBeGreaterThan(240);
    expect(surface.pixel(10, 63)[2]).toBeGreaterThan(240);
    expect(surface.pixel(10, 0)).toEqual(surface.pixel(50, 0));
  });

  it('a fade direction written as an expression turns with it', () => {
    // frame 0: horizontal; frame 90: vertical, so the top row is one color from left to right.
    const horizontal = run('(wipe fade:red-blue:frame)').surface;
    expect(horizontal.pixel(0, 0)).not.toEqual(horizontal.pixel(63, 0));
    const vertical = run('(wipe fade:red-blue:frame)', { frames: 91 }).surface;
    expect(vertical.pixel(0, 0)).toEqual(vertical.pixel(63, 0));
    expect(vertical.pixel(0, 0)).not.toEqual(vertical.pixel(0, 63));
  });

  it('erase punches holes (alpha goes to 0)', () => {
    const { surface } = run('(wipe red) (ink erase) (box 0 0 10 10)');
    expect(surface.pixel(5, 5)[3]).toBe(0);
    expect(surface.pixel(20, 20)).toEqual(RED);
  });

  it('(ink) with no argument picks a color from the seed', () => {
    const a = run('(ink) (box 0 0 w h)', { seed: 7 }).surface.pixel(1, 1);
    expect(run('(ink) (box 0 0 w h)', { seed: 7 }).surface.pixel(1, 1)).toEqual(a);
    expect(run('(ink) (box 0 0 w h)', { seed: 8 }).surface.pixel(1, 1)).not.toEqual(a);
  });

  it('reports a color it does not know and keeps the previous ink', () => {
    const { surface, runtime } = run('(ink red) (ink blorp) (box 0 0 5 5)');
    expect(surface.pixel(2, 2)).toEqual(RED);
    expect(runtime.report().unknown).toEqual(['blorp (not a color)']);
  });
});

describe('shapes', () => {
  it('line draws every pixel between its ends, both included', () => {
    const { surface } = run('(ink red) (line 0 5 63 5) (line 10 10 20 20)');
    for (let x = 0; x < 64; x++) expect(surface.pixel(x, 5)).toEqual(RED);
    expect(surface.pixel(0, 6)).toEqual(BLACK);
    for (let i = 10; i <= 20; i++) expect(surface.pixel(i, i)).toEqual(RED);
    expect(surface.pixel(21, 21)).toEqual(BLACK);
  });

  it('(line) and (box) without coordinates draw somewhere, the same place for the same seed', () => {
    const first = run('(ink red) (line) (box)', { seed: 3 }).surface;
    expect(first.count(RED)).toBeGreaterThan(0);
    expect(run('(ink red) (line) (box)', { seed: 3 }).surface.snapshot()).toEqual(first.snapshot());
  });

  it('box modes: outline (just outside, as the reference), inline, outline:N, centered, negative', () => {
    const outline = run('(ink red) (box 10 10 20 20 "outline")').surface;
    expect(outline.pixel(9, 15)).toEqual(RED);
    expect(outline.pixel(30, 15)).toEqual(RED);
    expect(outline.pixel(9, 9)).toEqual(RED);
    expect(outline.pixel(10, 15)).toEqual(BLACK);
    expect(outline.pixel(20, 20)).toEqual(BLACK);
    const inline = run('(ink red) (box 10 10 20 20 "inline")').surface;
    expect(inline.pixel(10, 15)).toEqual(RED);
    expect(inline.pixel(29, 15)).toEqual(RED);
    expect(inline.pixel(9, 15)).toEqual(BLACK);
    const thick = run('(ink red) (box 10 10 20 20 outline:3)').surface;
    expect(thick.pixel(7, 20)).toEqual(RED);
    expect(thick.pixel(6, 20)).toEqual(BLACK);
    expect(thick.pixel(10, 20)).toEqual(BLACK);
    const thickInside = run('(ink red) (box 10 10 20 20 inline:3)').surface;
    expect(thickInside.pixel(12, 20)).toEqual(RED);
    expect(thickInside.pixel(13, 20)).toEqual(BLACK);
    const centered = run('(ink red) (box 32 32 10 10 "fill*center")').surface;
    expect(centered.pixel(28, 28)).toEqual(RED);
    expect(centered.pixel(38, 38)).toEqual(BLACK);
    const negative = run('(ink red) (box 20 20 -10 -10)').surface;
    expect(negative.pixel(15, 15)).toEqual(RED);
    expect(negative.pixel(22, 22)).toEqual(BLACK);
  });

  it('(outline) makes later shapes hollow until (fill)', () => {
    const { surface } = run('(ink red) (outline) (box 1 1 20 20) (fill) (box 30 30 20 20)');
    expect(surface.pixel(10, 10)).toEqual(BLACK);
    expect(surface.pixel(0, 10)).toEqual(RED);
    expect(surface.pixel(40, 40)).toEqual(RED);
  });

  it('circle fills a disc or draws a ring', () => {
    const disc = run('(ink red) (circle 32 32 10)').surface;
    expect(disc.pixel(32, 32)).toEqual(RED);
    expect(disc.pixel(38, 32)).toEqual(RED);
    expect(disc.pixel(44, 32)).toEqual(BLACK);
    const ring = run('(ink red) (circle 32 32 10 "outline")').surface;
    expect(ring.pixel(32, 32)).toEqual(BLACK);
    expect(ring.pixel(42, 32)).toEqual(RED);
    expect(ring.pixel(32, 22)).toEqual(RED);
    expect(ring.pixel(41, 32)).toEqual(BLACK);
  });

  it('oval has two radii', () => {
    const { surface } = run('(ink red) (oval 32 32 20 5)');
    expect(surface.pixel(50, 32)).toEqual(RED);
    expect(surface.pixel(32, 40)).toEqual(BLACK);
  });

  it('tri fills a triangle', () => {
    const { surface } = run('(ink red) (tri 0 0 63 0 0 63)');
    expect(surface.pixel(5, 5)).toEqual(RED);
    expect(surface.pixel(60, 60)).toEqual(BLACK);
  });

  it('shapes far larger than the screen are clipped, not cut off by the budget', () => {
    const box = run('(ink red) (box -1e9 -1e9 2e9 2e9)', { stepLimit: 1_000 });
    expect(box.runtime.report().problems).toEqual([]);
    expect(box.surface.count(RED)).toBe(64 * 64);
    const disc = run('(ink blue) (circle 32 32 1e9)', { stepLimit: 1_000 });
    expect(disc.runtime.report().problems).toEqual([]);
    expect(disc.surface.count(BLUE)).toBe(64 * 64);
    const line = run('(ink red) (line -1e9 -1e9 1e9 1e9) (write "x" 0 0 nil 1e9)', {
      stepLimit: 1_000,
    });
    expect(line.runtime.report().problems).toEqual([]);
    for (let i = 0; i < 64; i++) expect(line.surface.pixel(i, i)).toEqual(RED);
  });

  it('point and plot set single pixels', () => {
    const { surface } = run('(ink red) (point 3 4) (plot 5 6)');
    expect(surface.count(RED)).toBe(2);
    expect(surface.pixel(3, 4)).toEqual(RED);
    expect(surface.pixel(5, 6)).toEqual(RED);
  });

  it('shape fills a polygon from x y pairs', () => {
    const { surface } = run('(ink red) (shape 10 10 50 10 50 50 10 50)');
    expect(surface.pixel(30, 30)).toEqual(RED);
    expect(surface.pixel(5, 5)).toEqual(BLACK);
  });

  it('write draws text in the ink, with an optional background and size', () => {
    // Red pixels inside the box (x0, y0)-(x1, y1), exclusive ends.
    const redIn = (surface: PixelSurface, x0: number, y0: number, x1: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) if (surface.pixel(x, y)[0] === 255) n++;
      return n;
    };
    const plain = run('(ink red) (write "hi" 0 0)').surface;
    expect(redIn(plain, 0, 0, 12, 10)).toBeGreaterThan(8);
    expect(redIn(plain, 0, 0, 64, 64)).toBe(redIn(plain, 0, 0, 12, 10));
    const boxed = run('(ink red) (write "a b" 0 0 blue)').surface;
    expect(boxed.pixel(7, 1)).toEqual(BLUE);
    const big = run('(ink red) (write "x" 0 0 nil 3)').surface;
    expect(redIn(big, 0, 0, 18, 30)).toBeGreaterThan(
      9 * redIn(run('(ink red) (write "x" 0 0)').surface, 0, 0, 6, 10) - 1,
    );
    const centered = run('(ink red) (write "hi" center center)').surface;
    expect(redIn(centered, 20, 27, 44, 37)).toBeGreaterThan(8);
    expect(centered.pixel(2, 2)).toEqual(BLACK);
  });
});
