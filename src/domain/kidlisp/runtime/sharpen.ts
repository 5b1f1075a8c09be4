import { copyOfPixels, pixelView } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * Beyond this the sums lose the pixel's own value to rounding (the reference's turn to 0 or 255
 * at random there); up to it, a pixel equal to its four neighbours provably keeps its value.
 */
const STRONGEST = 1e12;

/**
 * `sharpen strength`, as the reference's graph.mjs `sharpen`: each pixel's red, green and blue
 * become `c * (1 + 4s) - s * (up + down + left + right)`, rounded and held to 0..255, read from
 * the picture as it was. Alpha stays; fully transparent pixels and the one-pixel border of the
 * screen are left alone, and so (as the sums give) is a pixel equal to its four neighbours.
 * Nothing happens for a strength of 0 or less (or not a number); a strength above 1e12 acts as
 * 1e12.
 */
export function sharpenPixels(block: PixelBlock, strength: number): void {
  const { width, height, data } = block;
  if (!(strength > 0) || width < 3 || height < 3) return;
  const s = Math.min(strength, STRONGEST);
  const center = 1 + 4 * s;
  const edge = -s;
  const { view } = pixelView(block);
  const before = copyOfPixels(view);
  for (let y = 1; y < height - 1; y++) {
    for (let p = y * width + 1, end = (y + 1) * width - 1; p < end; p++) {
      const pixel = before[p] as number;
      const i = p * 4;
      if (((pixel >>> ALPHA) & 255) === 0) continue;
      // A flat spot keeps its color: skip the sums (most of a typical picture).
      if (
        before[p - 1] === pixel &&
        before[p + 1] === pixel &&
        before[p - width] === pixel &&
        before[p + width] === pixel
      ) {
        continue;
      }
      const up = before[p - width] as number;
      const down = before[p + width] as number;
      const left = before[p - 1] as number;
      const right = before[p + 1] as number;
      data[i] = sharpened(pixel, up, down, left, right, RED, center, edge);
      data[i + 1] = sharpened(pixel, up, down, left, right, GREEN, center, edge);
      data[i + 2] = sharpened(pixel, up, down, left, right, BLUE, center, edge);
    }
  }
}

/** Where each channel sits in a 32-bit pixel, by the machine's byte order. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const [RED, GREEN, BLUE, ALPHA] = LITTLE_ENDIAN ? [0, 8, 16, 24] : [24, 16, 8, 0];

/** One channel, the reference's sum in its order of additions (so rounding matches it). */
function sharpened(
  pixel: number,
  up: number,
  down: number,
  left: number,
  right: number,
  shift: number,
  center: number,
  edge: number,
): number {
  let sum = ((pixel >>> shift) & 255) * center;
  sum += ((up >>> shift) & 255) * edge;
  sum += ((down >>> shift) & 255) * edge;
  sum += ((left >>> shift) & 255) * edge;
  sum += ((right >>> shift) & 255) * edge;
  return Math.round(sum); // the clamped array holds it to 0..255
}
