import { pixelView } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

// One row, kept between calls.
let spare = new Uint32Array(0);

/** `flip`, as the reference's graph.mjs `flip`: the picture upside down (the rows in reverse). */
export function flipPixels(block: PixelBlock): void {
  const { width, height } = block;
  if (width === 0 || height < 2) return;
  const { view, commit } = pixelView(block);
  if (spare.length !== width) spare = new Uint32Array(width);
  for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
    const a = top * width;
    const b = bottom * width;
    spare.set(view.subarray(a, a + width));
    view.copyWithin(a, b, b + width);
    view.set(spare, b);
  }
  commit();
}
