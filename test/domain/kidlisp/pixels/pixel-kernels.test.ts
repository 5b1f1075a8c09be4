import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blendPixel, type Ink } from '../../../../src/domain/kidlisp/raster/pixels.js';
import {
  blurInKernel,
  composeInKernel,
  divisionFor,
  spinInKernel,
  zoomInKernel,
} from '../../../../src/domain/kidlisp/runtime/wasm/pixel-kernels.js';

/** Layers over a screen by their definition: each layer pixel drawn as a point is, in order. */
function composeByDefinition(screen: Uint8ClampedArray, layers: Uint8ClampedArray[]) {
  const out = new Uint8ClampedArray(screen);
  for (const layer of layers)
    for (let i = 0; i < layer.length; i += 4) {
      const ink: Ink = {
        r: layer[i] as number,
        g: layer[i + 1] as number,
        b: layer[i + 2] as number,
        a: layer[i + 3] as number,
        erase: false,
      };
      blendPixel(out, i, ink);
    }
  return out;
}

const slowBlend = (
  screen: Uint8ClampedArray,
  i: number,
  r: number,
  g: number,
  b: number,
  a: number,
) => blendPixel(screen, i, { r, g, b, a, erase: false });

/** Pixels whose alpha is clear, opaque or anything between, in about equal parts. */
const pixels = (count: number) =>
  fc
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.oneof(fc.constant(0), fc.constant(255), fc.integer({ min: 1, max: 254 })),
      ),
      { minLength: count, maxLength: count },
    )
    .map((list) => new Uint8ClampedArray(list.flat()));

describe('the composition kernel draws layers as points are drawn', () => {
  it('for any screen (opaque or not), any layers and any pixel count', () => {
    const scene = fc.integer({ min: 1, max: 70 }).chain((count) =>
      fc.record({
        screen: pixels(count),
        layers: fc.array(pixels(count), { minLength: 1, maxLength: 4 }),
      }),
    );
    fc.assert(
      fc.property(scene, ({ screen, layers }) => {
        const expected = composeByDefinition(screen, layers);
        expect(composeInKernel(screen, layers, slowBlend)).toBe(true);
        expect(Buffer.from(screen).equals(Buffer.from(expected))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('on a whole 256x256 screen under four blurred-looking layers', () => {
    const size = 256 * 256 * 4;
    const screen = new Uint8ClampedArray(size);
    for (let i = 0; i < size; i++) screen[i] = i % 4 === 3 ? 255 : (i * 2654435761) >>> 24;
    const layers = [1, 2, 3, 4].map((seed) => {
      const layer = new Uint8ClampedArray(size);
      for (let i = 0; i < size; i++) layer[i] = (Math.imul(i + seed, 2246822519) >>> 25) * 2;
      return layer;
    });
    const expected = composeByDefinition(screen, layers);
    expect(composeInKernel(screen, layers, slowBlend)).toBe(true);
    expect(Buffer.from(screen).equals(Buffer.from(expected))).toBe(true);
  });
});

describe('the blur kernel', () => {
  it('takes radii 1 to 7 (blur.test.ts holds it to the definition) and leaves larger ones', () => {
    const data = new Uint8ClampedArray(4 * 4 * 4).fill(90);
    for (let radius = 1; radius <= 7; radius++)
      expect(blurInKernel({ width: 4, height: 4, data }, radius)).toBe(true);
    expect(blurInKernel({ width: 4, height: 4, data }, 8)).toBe(false);
    expect([...new Set(data)]).toEqual([90]);
  });

  it('divides every box sum of radii 1 to 7 by a 16-bit multiplier and a shift', () => {
    for (let radius = 1; radius <= 7; radius++) {
      const area = (2 * radius + 1) ** 2;
      const division = divisionFor(area);
      expect(division).not.toBeNull();
      const { round, multiplier, shift } = division as NonNullable<typeof division>;
      expect(multiplier).toBeLessThanOrEqual(0xffff);
      for (const sum of [0, 1, (area - 1) / 2, (area + 1) / 2, area, area * 255])
        expect(Math.floor(((sum + round) * multiplier) / 2 ** shift)).toBe(Math.round(sum / area));
    }
  });
});

describe('the spin and zoom kernels', () => {
  // transforms.test.ts holds both words to their definitions, whichever path draws.
  it('take spins about centres within 2^20 pixels of the screen, and every zoom', () => {
    const block = { width: 3, height: 2, data: new Uint8ClampedArray(24).fill(7) };
    expect(spinInKernel(block, 0.5, 0.8, 1.5, -(2 ** 19))).toBe(true);
    expect(spinInKernel(block, 0.5, 0.8, 2 ** 21, 1)).toBe(false);
    expect(spinInKernel(block, 0.5, 0.8, Number.NaN, 1)).toBe(false);
    expect(zoomInKernel(block, new Int32Array([3, 0]), new Int32Array([2, 1, 0]))).toBe(true);
    expect([...new Set(block.data)]).toEqual([7]);
  });
});
