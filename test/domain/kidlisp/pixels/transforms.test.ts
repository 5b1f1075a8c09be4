import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contrastPixels,
  invertPixels,
  spinPixels,
  zoomPixels,
} from '../../../../src/domain/kidlisp/runtime/pixels.js';
import { between } from '../../../support/numbers.js';

/**
 * The whole-screen transforms against their definitions, one pixel or byte at a time: what the
 * faster loops in pixels.ts (tables, 32-bit elements, wrapping by addition) must give back.
 */

const wrap = (value: number, size: number) => ((value % size) + size) % size;

function pictureOf(width: number, height: number, seed: number): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    data[i] = state >> 23;
  }
  return data;
}

/** Each destination pixel taken from the source pixel `from(x, y)` gives, wrapped. */
function resampled(
  data: Uint8ClampedArray,
  width: number,
  height: number,
  from: (x: number, y: number) => [number, number],
): Uint8ClampedArray {
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [sx, sy] = from(x, y);
      const at = (wrap(sy, height) * width + wrap(sx, width)) * 4;
      out.set(data.subarray(at, at + 4), (y * width + x) * 4);
    }
  return out;
}

const same = (a: Uint8ClampedArray, b: Uint8ClampedArray) => Buffer.from(a).equals(Buffer.from(b));

const size = fc.integer({ min: 1, max: 20 });
const seed = fc.integer({ min: 0, max: 2 ** 31 });
// Near the screen (spin's kernel takes centres within 2^20 pixels) and far from it (JavaScript's).
const centre = fc.oneof(between(-100, 100), between(-3e6, 3e6));

describe('zoom and spin give the nearest source pixel, wrapped however far away it is', () => {
  it('zoom, any factor from 1/100 to 50 about any centre', () => {
    fc.assert(
      fc.property(
        size,
        size,
        seed,
        between(0.01, 50),
        centre,
        centre,
        (width, height, s, factor, cx, cy) => {
          fc.pre(factor !== 1);
          const data = pictureOf(width, height, s);
          const expected = resampled(data, width, height, (x, y) => [
            Math.floor(cx + (x + 0.5 - cx) / factor),
            Math.floor(cy + (y + 0.5 - cy) / factor),
          ]);
          zoomPixels({ width, height, data }, factor, cx, cy);
          expect(same(data, expected)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('spin, any angle about any centre (the source steps along each row as spin walks it)', () => {
    fc.assert(
      fc.property(
        size,
        size,
        seed,
        between(-720, 720),
        centre,
        centre,
        (width, height, s, degrees, cx, cy) => {
          fc.pre(degrees % 360 !== 0);
          const data = pictureOf(width, height, s);
          const radians = (degrees * Math.PI) / 180;
          const cos = Math.cos(radians);
          const sin = Math.sin(radians);
          const walked: [number, number][] = [];
          for (let y = 0; y < height; y++) {
            const ry = y + 0.5 - cy;
            let sx = cx + (0.5 - cx) * cos + ry * sin;
            let sy = cy - (0.5 - cx) * sin + ry * cos;
            for (let x = 0; x < width; x++) {
              walked.push([Math.floor(sx), Math.floor(sy)]);
              sx += cos;
              sy -= sin;
            }
          }
          const expected = resampled(
            data,
            width,
            height,
            (x, y) => walked[y * width + x] ?? [0, 0],
          );
          spinPixels({ width, height, data }, degrees, cx, cy);
          expect(same(data, expected)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('contrast and invert, byte by byte', () => {
  it('contrast scales each color byte about 128 for any amount, alpha kept', () => {
    fc.assert(
      fc.property(
        size,
        size,
        seed,
        fc.oneof(between(-4, 4), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
        (width, height, s, amount) => {
          const data = pictureOf(width, height, s);
          const expected = new Uint8ClampedArray(data);
          if (amount !== 1)
            for (let i = 0; i < expected.length; i++)
              if (i % 4 !== 3) expected[i] = ((data[i] as number) - 128) * amount + 128;
          contrastPixels({ width, height, data }, amount);
          expect(same(data, expected)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('invert flips each color byte and keeps alpha, bytes misaligned or not', () => {
    for (const offset of [0, 1, 2, 3]) {
      const bytes = pictureOf(7, 5, offset + 11);
      const buffer = new Uint8ClampedArray(bytes.length + offset);
      buffer.set(bytes, offset);
      const data = buffer.subarray(offset);
      invertPixels({ width: 7, height: 5, data });
      for (let i = 0; i < data.length; i++)
        expect(data[i]).toBe(i % 4 === 3 ? bytes[i] : 255 - (bytes[i] as number));
    }
  });
});
