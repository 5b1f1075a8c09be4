import type { Area, PixelBlock } from './types.js';

// The area's pixels while a change works on them, kept between calls (no allocation a frame).
let scratch = new Uint8ClampedArray(0);

/**
 * Runs a whole-block pixel change on one area of `block` only: the area's rows are copied into a
 * block of the area's size, changed there (so a scroll wraps at the area's edges and a spin turns
 * about its middle, as the reference's transforms do under a mask), and copied back. Pixels
 * outside the area are not touched. The copies cost two passes over the area, not the screen.
 */
export function withinArea(
  block: PixelBlock,
  area: Area,
  change: (inside: PixelBlock) => void,
): void {
  const { x, y, width, height } = area;
  if (width <= 0 || height <= 0) return;
  if (x === 0 && y === 0 && width === block.width && height === block.height) {
    change(block);
    return;
  }
  const rowBytes = width * 4;
  if (scratch.length !== rowBytes * height) scratch = new Uint8ClampedArray(rowBytes * height);
  const inside: PixelBlock = { width, height, data: scratch };
  const stride = block.width * 4;
  for (let row = 0; row < height; row++) {
    const from = (y + row) * stride + x * 4;
    scratch.set(block.data.subarray(from, from + rowBytes), row * rowBytes);
  }
  change(inside);
  // A change may hand back other bytes in the same block object (it is told to change in place).
  for (let row = 0; row < height; row++) {
    const to = (y + row) * stride + x * 4;
    block.data.set(inside.data.subarray(row * rowBytes, (row + 1) * rowBytes), to);
  }
}
