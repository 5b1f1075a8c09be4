import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blurPixels } from '../../../../src/domain/kidlisp/runtime/pixels.js';

/**
 * The box blur by its definition, one pixel at a time: the mean of the 2r+1 neighbours along a
 * row (edges repeat) kept as a float32, then the same down each column, then rounded to a byte.
 */
function blurByDefinition(data: Uint8ClampedArray, width: number, height: number, r: number) {
  const scale = 1 / (2 * r + 1);
  const clamp = (value: number, last: number) => Math.min(last, Math.max(0, value));
  const across = new Float32Array(data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let i = -r; i <= r; i++)
          sum += data[(y * width + clamp(x + i, width - 1)) * 4 + c] ?? 0;
        across[(y * width + x) * 4 + c] = sum * scale;
      }
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let i = -r; i <= r; i++)
          sum += across[(clamp(y + i, height - 1) * width + x) * 4 + c] ?? 0;
        out[(y * width + x) * 4 + c] = Math.fround(sum * scale);
      }
  return out;
}

describe('blur: the fast box blur gives the bytes of its definition', () => {
  it('on any picture, size and radius (1..64), edges included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (width, height, radius, seed) => {
          const data = new Uint8ClampedArray(width * height * 4);
          let state = seed;
          for (let i = 0; i < data.length; i++) {
            state = (state * 1103515245 + 12345) % 2 ** 31;
            data[i] = state >> 23;
          }
          const expected = blurByDefinition(data, width, height, radius);
          blurPixels({ width, height, data }, radius);
          expect(Buffer.from(data).equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('on a clear picture with a few painted rectangles (a layer with stamps), edges included', () => {
    const rect = fc.record({
      x: fc.integer({ min: 0, max: 39 }),
      y: fc.integer({ min: 0, max: 39 }),
      w: fc.integer({ min: 1, max: 12 }),
      h: fc.integer({ min: 1, max: 12 }),
      color: fc.integer({ min: 1, max: 2 ** 32 - 1 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(rect, { maxLength: 3 }),
        (width, height, radius, rects) => {
          const data = new Uint8ClampedArray(width * height * 4);
          const pixels = new Uint32Array(data.buffer);
          for (const { x, y, w, h, color } of rects)
            for (let row = y; row < Math.min(height, y + h); row++)
              for (let column = x; column < Math.min(width, x + w); column++)
                pixels[row * width + column] = color;
          const expected = blurByDefinition(data, width, height, radius);
          blurPixels({ width, height, data }, radius);
          expect(Buffer.from(data).equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('on a whole 256x256 screen, with one sum a channel (radius 8 and up) and two (up to 7)', () => {
    const size = 256;
    const picture = new Uint8ClampedArray(size * size * 4);
    for (let i = 0; i < picture.length; i++) picture[i] = (i * 2654435761) >>> 24;
    for (const radius of [1, 2, 7, 8, 64]) {
      const data = new Uint8ClampedArray(picture);
      blurPixels({ width: size, height: size, data }, radius);
      const expected = blurByDefinition(picture, size, size, radius);
      expect(Buffer.from(data).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('a block whose bytes do not start on a 4-byte boundary is blurred the same', () => {
    const width = 9;
    const height = 7;
    const bytes = new Uint8ClampedArray(width * height * 4 + 1);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 97) % 256;
    const misaligned = bytes.subarray(1);
    const expected = blurByDefinition(misaligned, width, height, 2);
    blurPixels({ width, height, data: misaligned }, 2);
    expect(Buffer.from(misaligned).equals(Buffer.from(expected))).toBe(true);
  });

  it('a one-pixel white dot on black spreads into a 3x3 square at radius 1', () => {
    const width = 5;
    const data = new Uint8ClampedArray(width * width * 4);
    data.set([255, 255, 255, 255], (2 * width + 2) * 4);
    blurPixels({ width, height: width, data }, 1);
    const at = (x: number, y: number) => data[(y * width + x) * 4] ?? -1;
    expect(at(2, 2)).toBe(28); // 255 / 9, rounded
    expect(at(1, 1)).toBe(28);
    expect(at(0, 0)).toBe(0);
  });
});
