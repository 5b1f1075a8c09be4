import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flipPixels } from '../../../../src/domain/kidlisp/runtime/flip.js';
import { NoiseRandom, noisePixels } from '../../../../src/domain/kidlisp/runtime/noise.js';
import { sharpenPixels } from '../../../../src/domain/kidlisp/runtime/sharpen.js';
import { shearPixels } from '../../../../src/domain/kidlisp/runtime/shear.js';
import { sortPixels } from '../../../../src/domain/kidlisp/runtime/sort-pixels.js';
import { suckPixels } from '../../../../src/domain/kidlisp/runtime/suck.js';
import { between } from '../../../support/numbers.js';

/**
 * Each fast effect against its definition written pixel by pixel, as the reference's graph.mjs
 * words it (shear, flip, sharpen, suck, sort), on pictures of few colors (ties, flat spots,
 * transparent pixels) and of many.
 */

interface Picture {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

const picture = fc
  .record({
    width: fc.integer({ min: 1, max: 20 }),
    height: fc.integer({ min: 1, max: 20 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 }),
    // Few colors make ties and flat spots; 0 means any byte.
    palette: fc.constantFrom(0, 2, 5),
  })
  .map(({ width, height, seed, palette }): Picture => {
    const data = new Uint8ClampedArray(width * height * 4);
    let state = seed;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state >> 23;
    };
    const colors = Array.from({ length: palette }, () => [
      next(),
      next(),
      next(),
      next() % 2 ? 255 : 0,
    ]);
    for (let p = 0; p < width * height; p++) {
      data.set(
        palette === 0 ? [next(), next(), next(), next()] : (colors[next() % palette] ?? []),
        p * 4,
      );
    }
    return { width, height, data };
  });

const copy = ({ width, height, data }: Picture): Picture => ({
  width,
  height,
  data: new Uint8ClampedArray(data),
});
const same = (a: Uint8ClampedArray, b: Uint8ClampedArray) => Buffer.from(a).equals(Buffer.from(b));
const mod = (a: number, n: number) => ((a % n) + n) % n;

function shearByDefinition(source: Picture, sx: number, sy: number): Uint8ClampedArray {
  const { width: w, height: h } = source;
  let from = source.data;
  if (sx !== 0) {
    const out = new Uint8ClampedArray(from.length);
    for (let y = 0; y < h; y++) {
      const shift = Math.round(sx * (y - h / 2));
      for (let x = 0; x < w; x++)
        out.set(
          from.subarray((y * w + mod(x - shift, w)) * 4, (y * w + mod(x - shift, w)) * 4 + 4),
          (y * w + x) * 4,
        );
    }
    from = out;
  }
  if (sy !== 0) {
    const out = new Uint8ClampedArray(from.length);
    for (let x = 0; x < w; x++) {
      const shift = Math.round(sy * (x - w / 2));
      for (let y = 0; y < h; y++) {
        const at = (mod(y - shift, h) * w + x) * 4;
        out.set(from.subarray(at, at + 4), (y * w + x) * 4);
      }
    }
    from = out;
  }
  return from;
}

function sharpenByDefinition(source: Picture, s: number): Uint8ClampedArray {
  const { width: w, height: h, data } = source;
  const out = new Uint8ClampedArray(data);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = (y * w + x) * 4;
      if (data[i + 3] === 0) continue;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        sum += (data[i + c] ?? 0) * (1 + 4 * s);
        sum += (data[i - w * 4 + c] ?? 0) * -s;
        sum += (data[i + w * 4 + c] ?? 0) * -s;
        sum += (data[i - 4 + c] ?? 0) * -s;
        sum += (data[i + 4 + c] ?? 0) * -s;
        out[i + c] = Math.max(0, Math.min(255, Math.round(sum)));
      }
    }
  return out;
}

function suckByDefinition(
  source: Picture,
  amount: number,
  cx: number,
  cy: number,
): Uint8ClampedArray {
  const { width: w, height: h, data } = source;
  const out = new Uint8ClampedArray(data);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const distance = Math.sqrt(dx * dx + dy * dy);
      if (distance < 1) continue;
      const scale = (distance + amount) / distance;
      const sx = Math.max(0, Math.min(w - 1, cx + dx * scale));
      const sy = Math.max(0, Math.min(h - 1, cy + dy * scale));
      const x1 = Math.floor(sx);
      const y1 = Math.floor(sy);
      const x2 = Math.min(w - 1, x1 + 1);
      const y2 = Math.min(h - 1, y1 + 1);
      const wx = sx - x1;
      const wy = sy - y1;
      for (let c = 0; c < 4; c++) {
        const at = (px: number, py: number) => data[(py * w + px) * 4 + c] ?? 0;
        const top = at(x1, y1) * (1 - wx) + at(x2, y1) * wx;
        const bottom = at(x1, y2) * (1 - wx) + at(x2, y2) * wx;
        out[(y * w + x) * 4 + c] = Math.round(top * (1 - wy) + bottom * wy);
      }
    }
  return out;
}

function sortByDefinition(source: Picture): Uint8ClampedArray {
  const { data } = source;
  const pixels = [];
  for (let i = 0; i < data.length; i += 4) {
    const [r = 0, g = 0, b = 0, a = 0] = data.subarray(i, i + 4);
    pixels.push({ rgba: [r, g, b, a], luminance: 0.299 * r + 0.587 * g + 0.114 * b });
  }
  pixels.sort((p, q) => p.luminance - q.luminance);
  return Uint8ClampedArray.from(pixels.flatMap((p) => p.rgba));
}

const factor = fc.oneof(
  between(-3, 3),
  fc.integer({ min: -40, max: 40 }).map((n) => n / 8),
);

describe('whole-screen effects give the bytes of their definitions', () => {
  it('shear: rows, then columns, move by round(factor * distance from the middle), wrapping', () => {
    fc.assert(
      fc.property(picture, factor, factor, (source, sx, sy) => {
        const block = copy(source);
        shearPixels(block, sx, sy);
        expect(same(block.data, shearByDefinition(source, sx, sy))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('flip: the rows in reverse; twice is the picture again', () => {
    fc.assert(
      fc.property(picture, (source) => {
        const block = copy(source);
        flipPixels(block);
        const { width, height } = source;
        for (let y = 0; y < height; y++) {
          const row = (r: Uint8ClampedArray, at: number) =>
            Array.from(r.subarray(at * width * 4, (at + 1) * width * 4));
          expect(row(block.data, y)).toEqual(row(source.data, height - 1 - y));
        }
        flipPixels(block);
        expect(same(block.data, source.data)).toBe(true);
      }),
    );
  });

  it('sharpen: the 3x3 cross, border, transparent and flat pixels left alone', () => {
    const strength = fc.oneof(between(0.01, 40), fc.constantFrom(1, 2, 0.5, 1e6));
    fc.assert(
      fc.property(picture, strength, (source, s) => {
        const block = copy(source);
        sharpenPixels(block, s);
        expect(same(block.data, sharpenByDefinition(source, s))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('suck: each pixel from further along its ray (bilinear, edges held), the center kept', () => {
    const amount = fc.oneof(between(-30, 30), fc.constantFrom(0.5, 1, 2, -1));
    const at = between(-10, 30);
    fc.assert(
      fc.property(picture, amount, at, at, (source, a, cx, cy) => {
        fc.pre(a !== 0);
        const block = copy(source);
        suckPixels(block, a, cx, cy);
        expect(same(block.data, suckByDefinition(source, a, cx, cy))).toBe(true);
        // The second call reuses the kept map and gives the same bytes.
        const again = copy(source);
        suckPixels(again, a, cx, cy);
        expect(same(again.data, block.data)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('sort: every pixel by luminance, darkest first, ties in their order (a stable sort)', () => {
    fc.assert(
      fc.property(picture, (source) => {
        const block = copy(source);
        sortPixels(block);
        expect(same(block.data, sortByDefinition(source))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('sort: colors whose luminance sums tie but whose rounded luminances differ', () => {
    // 299 r + 587 g + 114 b is 41,743 for both (32, 55, 2) and (2, 20, 242), among others.
    const colors: number[][] = [];
    for (let r = 0; r < 256 && colors.length < 40; r += 3)
      for (let g = 0; g < 256 && colors.length < 40; g += 5) {
        const b = (41_743 - 299 * r - 587 * g) / 114;
        if (Number.isInteger(b) && b >= 0 && b <= 255) colors.push([r, g, b, 255]);
      }
    expect(colors.length).toBeGreaterThan(3);
    const lums = new Set(colors.map(([r = 0, g = 0, b = 0]) => 0.299 * r + 0.587 * g + 0.114 * b));
    expect(lums.size).toBeGreaterThan(1);
    const source = {
      width: colors.length,
      height: 2,
      data: Uint8ClampedArray.from([...colors, ...colors.reverse()].flat()),
    };
    const block = copy(source);
    sortPixels(block);
    expect(same(block.data, sortByDefinition(source))).toBe(true);
  });
});

describe('noise', () => {
  const levels = new Set([
    0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 255,
  ]);

  it('makes every pixel opaque, each channel one of the 17 levels, all 17 drawn', () => {
    const block = { width: 64, height: 64, data: new Uint8ClampedArray(64 * 64 * 4) };
    noisePixels(block, 'plain', new NoiseRandom(3));
    const seen = new Set<number>();
    for (let i = 0; i < block.data.length; i += 4) {
      for (let c = 0; c < 3; c++) seen.add(block.data[i + c] ?? -1);
      expect(block.data[i + 3]).toBe(255);
    }
    expect(seen).toEqual(levels);
  });

  it('digitpain and aesthetic scale the levels per channel, rounding as a byte array does', () => {
    const block = { width: 32, height: 32, data: new Uint8ClampedArray(32 * 32 * 4) };
    noisePixels(block, 'digitpain', new NoiseRandom(5));
    const green = new Set<number>();
    for (let i = 0; i < block.data.length; i += 4) green.add(block.data[i + 1] ?? -1);
    // 0.15 of each level, rounded half to even: 16 * 0.15 = 2.4 -> 2, 255 * 0.15 = 38.25 -> 38.
    expect(green).toEqual(new Set([...levels].map((l) => new Uint8ClampedArray([l * 0.15])[0])));
    const other = { width: 32, height: 32, data: new Uint8ClampedArray(32 * 32 * 4) };
    noisePixels(other, 'aesthetic', new NoiseRandom(5));
    expect(Math.max(...other.data.filter((_, i) => i % 4 === 2))).toBe(204); // 255 * 0.8
  });

  it('sotce keeps about half of each channel and sets the rest to its levels', () => {
    const block = { width: 64, height: 64, data: new Uint8ClampedArray(64 * 64 * 4).fill(7) };
    noisePixels(block, 'sotce', new NoiseRandom(9));
    const reds = new Map<number, number>();
    for (let i = 0; i < block.data.length; i += 4) {
      reds.set(block.data[i] ?? -1, (reds.get(block.data[i] ?? -1) ?? 0) + 1);
      expect(block.data[i + 3]).toBe(255);
      expect([7, 115, 130, 144]).toContain(block.data[i + 1]);
    }
    expect([...reds.keys()].sort((a, b) => a - b)).toEqual([7, 224, 240, 255]);
    expect((reds.get(7) ?? 0) / 4096).toBeCloseTo(0.5, 1);
  });

  it('the same seed gives the same noise, another seed other noise', () => {
    const draw = (seed: number) => {
      const block = { width: 16, height: 16, data: new Uint8ClampedArray(16 * 16 * 4) };
      noisePixels(block, 'plain', new NoiseRandom(seed));
      return block.data;
    };
    expect(same(draw(1), draw(1))).toBe(true);
    expect(same(draw(1), draw(2))).toBe(false);
  });
});

describe('no effect throws or leaves the bytes on any number', () => {
  const anyNumber = fc.oneof(
    fc.double(),
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      1e308,
      -1e308,
      0,
      -0,
    ),
  );
  it('shear, sharpen and suck with NaN, infinities, huge and negative values', () => {
    fc.assert(
      fc.property(picture, anyNumber, anyNumber, anyNumber, (source, a, b, c) => {
        for (const apply of [
          (block: Picture) => shearPixels(block, a, b),
          (block: Picture) => sharpenPixels(block, a),
          (block: Picture) => suckPixels(block, a, b, c),
        ]) {
          const block = copy(source);
          expect(() => apply(block)).not.toThrow();
          expect(block.data.length).toBe(source.data.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an infinite or NaN factor moves nothing; a huge sharpen is sharpen 1e12', () => {
    const source = copy({
      width: 5,
      height: 5,
      data: Uint8ClampedArray.from({ length: 100 }, (_, i) => (i * 37) % 256),
    });
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const block = copy(source);
      shearPixels(block, value, value);
      suckPixels(block, value, 2, 2);
      expect(same(block.data, source.data)).toBe(true);
    }
    const huge = copy(source);
    sharpenPixels(huge, 1e300);
    expect(same(huge.data, sharpenByDefinition(source, 1e12))).toBe(true);
  });
});
