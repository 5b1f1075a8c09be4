import type { PixelBlock } from '../src/domain/kidlisp/runtime/index.js';

/**
 * Stand-ins for the paintings the bake + stamp family stamps (`#dml`, `#o2d` in $87a): discs of a
 * gradient on a transparent square, the size of a small painting, made here so the benchmarks
 * need no storage. Both the Node and the browser benchmark load them.
 */
function disc(size: number, tint: readonly [number, number, number]): PixelBlock {
  const data = new Uint8ClampedArray(size * size * 4);
  const middle = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (Math.hypot(x - middle, y - middle) > middle) continue;
      const at = (y * size + x) * 4;
      data[at] = (tint[0] * x) / size;
      data[at + 1] = (tint[1] * y) / size;
      data[at + 2] = tint[2];
      data[at + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

export const benchPaintings: Readonly<Record<string, PixelBlock>> = {
  dml: disc(96, [255, 180, 90]),
  o2d: disc(72, [120, 255, 200]),
};
