/**
 * The rasterizer on its own: the reference's pixel rules (graph.mjs) for blending, clipping at
 * every edge and shapes partly off the screen, and no throw for any input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blendPixel,
  blendSpan,
  lineBlendPixel,
} from '../../../../src/domain/kidlisp/raster/pixels.js';
import { presentLayer } from '../../../../src/domain/kidlisp/raster/present.js';
import { rasterSurface } from '../../../../src/domain/kidlisp/raster/raster-surface.js';
import type { Paint } from '../../../../src/domain/kidlisp/runtime/index.js';

const solid = (r: number, g: number, b: number, a = 255): Paint => ({
  kind: 'solid',
  color: [r, g, b, a],
});
const RED = solid(255, 0, 0);

function pixel(surface: ReturnType<typeof rasterSurface>, x: number, y: number): number[] {
  const i = (y * surface.width + x) * 4;
  return [...surface.pixels.subarray(i, i + 4)];
}

function painted(surface: ReturnType<typeof rasterSurface>): [number, number][] {
  const found: [number, number][] = [];
  for (let y = 0; y < surface.height; y++)
    for (let x = 0; x < surface.width; x++) if (pixel(surface, x, y)[3] !== 0) found.push([x, y]);
  return found;
}

describe('blending, for every alpha', () => {
  it('over an opaque pixel: ((a + 1) * src + (255 - a) * dst) >> 8, alpha stays 255', () => {
    for (let a = 1; a < 255; a++) {
      const px = new Uint8ClampedArray([10, 200, 90, 255]);
      blendPixel(px, 0, { r: 250, g: 0, b: 30, a, erase: false });
      const expected = (src: number, dst: number) => ((a + 1) * src + (255 - a) * dst) >> 8;
      expect([...px]).toEqual([expected(250, 10), expected(0, 200), expected(30, 90), 255]);
    }
  });

  it('over a transparent pixel: the color itself at its alpha', () => {
    for (let a = 1; a <= 255; a++) {
      const px = new Uint8ClampedArray(4);
      blendPixel(px, 0, { r: 250, g: 7, b: 30, a, erase: false });
      expect([...px]).toEqual([250, 7, 30, a]);
    }
  });

  it('alpha 0 changes nothing; 255 replaces', () => {
    const px = new Uint8ClampedArray([1, 2, 3, 4]);
    blendPixel(px, 0, { r: 9, g: 9, b: 9, a: 0, erase: false });
    expect([...px]).toEqual([1, 2, 3, 4]);
    blendPixel(px, 0, { r: 9, g: 9, b: 9, a: 255, erase: false });
    expect([...px]).toEqual([9, 9, 9, 255]);
  });

  it('sloped lines use their own rule: (src * a + dst * (255 - a)) >> 8', () => {
    for (let a = 1; a < 255; a++) {
      const px = new Uint8ClampedArray([100, 100, 100, 255]);
      lineBlendPixel(px, 0, { r: 200, g: 0, b: 50, a, erase: false });
      const mix = (src: number) => (src * a + 100 * (255 - a)) >> 8;
      expect([...px]).toEqual([mix(200), mix(0), mix(50), a + ((255 * (255 - a)) >> 8)]);
    }
  });

  it('erase lowers alpha by a / 255', () => {
    const px = new Uint8ClampedArray([5, 5, 5, 200]);
    blendPixel(px, 0, { r: 0, g: 0, b: 0, a: 255, erase: true });
    expect(px[3]).toBe(0);
  });

  it('presenting pastes the layer onto a cleared screen as the reference does', () => {
    const layer = new Uint8ClampedArray([200, 100, 50, 100, 1, 2, 3, 255, 9, 9, 9, 0]);
    const screen = new Uint8ClampedArray(12).fill(77);
    presentLayer(layer, screen);
    expect([...screen]).toEqual([
      (101 * 200) >> 8,
      (101 * 100) >> 8,
      (101 * 50) >> 8,
      100,
      1,
      2,
      3,
      255,
      0,
      0,
      0,
      0,
    ]);
  });
});

describe('clipping at every edge', () => {
  it('a box across each edge paints exactly its visible part', () => {
    const cases: [number, number, number, number, number][] = [
      [-5, 2, 8, 3, 3 * 3], // left: x 0..2
      [14, 2, 8, 3, 2 * 3], // right: x 14..15
      [2, -4, 3, 6, 3 * 2], // top: y 0..1
      [2, 14, 3, 6, 3 * 2], // bottom: y 14..15
      [-100, -100, 300, 300, 16 * 16], // all of it
      [20, 20, 5, 5, 0], // none
      // From past 2^53, where adding 1 changes nothing: still just the screen, and it ends.
      [0, -(2 ** 60), 2, 2 ** 61, 2 * 16],
      [-(2 ** 60), 3, 2 ** 61, 1, 16],
      [0, 2 ** 60, 2, -(2 ** 61), 2 * 16],
      [0, -1e16, 1, 2e16, 16], // row 1e16, plus 1, is 1e16 again: it never ended
    ];
    for (const [x, y, w, h, count] of cases) {
      const surface = rasterSurface(16, 16);
      surface.fillRect(x, y, w, h, RED);
      expect(painted(surface).length, `${[x, y, w, h]}`).toBe(count);
    }
  });

  it('a triangle far off the screen draws nothing, and ends', () => {
    for (const at of [1e16, -1e16, 2 ** 60]) {
      const surface = rasterSurface(16, 16);
      surface.polygon([0, at, 3, at + 4096, 6, at + 8192], 0, RED);
      surface.polygon([at, 0, at + 4096, 3, at + 8192, 6], 0, RED);
      expect(painted(surface), `${at}`).toEqual([]);
    }
  });

  it('a line leaving through each edge stops there and keeps its on-screen pixels', () => {
    for (const [x0, y0, x1, y1] of [
      [8, 8, -30, 9],
      [8, 8, 40, 8],
      [8, 8, 9, -30],
      [8, 8, 8, 40],
      [-10, -10, 30, 30],
    ] as const) {
      const surface = rasterSurface(16, 16);
      surface.line(x0, y0, x1, y1, 1, RED);
      const points = painted(surface);
      expect(points.length).toBeGreaterThan(7);
      for (const [x, y] of points) expect(x >= 0 && x < 16 && y >= 0 && y < 16).toBe(true);
    }
  });

  it('a reversed horizontal line that starts right of the screen is not drawn (as the reference)', () => {
    const surface = rasterSurface(16, 16);
    surface.line(40, 3, -5, 3, 1, RED);
    expect(painted(surface)).toEqual([]);
    surface.line(-5, 3, 40, 3, 1, RED);
    expect(painted(surface)).toHaveLength(16);
  });

  it('circles, triangles and polygons partly off the screen paint only inside it', () => {
    const surface = rasterSurface(16, 16);
    surface.ellipse(0, 0, 6, 6, 0, RED);
    surface.ellipse(15, 15, 6, 6, 1, RED);
    surface.polygon([10, -5, 25, 5, 12, 8], 0, RED);
    surface.polygon([-4, 10, 4, 10, 4, 20, -4, 20], 0, RED);
    const points = painted(surface);
    expect(points.length).toBeGreaterThan(40);
    expect(pixel(surface, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(pixel(surface, 0, 12)).toEqual([255, 0, 0, 255]);
  });
});

describe('any input', () => {
  const number = fc.oneof(
    fc.double({ noNaN: false }),
    fc.integer({ min: -100, max: 100 }),
    fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e12, -1e12),
  );
  const paint = fc.oneof(
    fc
      .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
      .map(([r, g, b, a]) => solid(r, g, b, a)),
    fc.nat(255).map((alpha): Paint => ({ kind: 'erase', alpha })),
  );

  it('never throws and never writes outside the buffer, for any shape and paint', () => {
    fc.assert(
      fc.property(
        fc.array(number, { minLength: 10, maxLength: 10 }),
        fc.nat(4),
        paint,
        fc.string({ maxLength: 8 }),
        (n, outline, ink, text) => {
          const surface = rasterSurface(12, 9);
          const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = n;
          surface.fillRect(a, b, c, d, ink);
          surface.line(a, b, c, d, outline, ink);
          surface.ellipse(a, b, c, d, outline, ink);
          surface.polygon([a, b, c, d, e, f], outline, ink);
          surface.polygon([a, b, c, d, e, f, g, h], outline, ink);
          surface.point(e, f, ink);
          surface.text(text, g, h, Math.abs(e) % 40, ink);
          surface.clear(ink);
          expect(surface.pixels.length).toBe(12 * 9 * 4);
        },
      ),
      { numRuns: Number(process.env.KIDLISP_RUNS ?? 300) },
    );
  });
});

describe('blendSpan: a row blended at once gives the bytes of blendPixel on each pixel', () => {
  it('for any ink (erase, clear, translucent, opaque) over any row, opaque or not', () => {
    const byte = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 4, maxLength: 64 }),
        fc.record({ r: byte, g: byte, b: byte, a: byte, erase: fc.boolean() }),
        fc.boolean(),
        (bytes, ink, opaque) => {
          const row = new Uint8ClampedArray(bytes.slice(0, bytes.length - (bytes.length % 4)));
          if (opaque) for (let i = 3; i < row.length; i += 4) row[i] = 255;
          const expected = row.slice();
          for (let i = 0; i < expected.length; i += 4) blendPixel(expected, i, ink);
          blendSpan(row, 0, row.length / 4, ink);
          expect([...row]).toEqual([...expected]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
