import { copyOfBytes } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/** Above this, products of a byte and the weights could overflow to infinity. */
const STRONGEST = 1e300;

/**
 * `sharpen strength`, as the reference's graph.mjs `sharpen`: each pixel's red, green and blue
 * become `c * (1 + 4s) - s * (up + down + left + right)`, rounded and held to 0..255, read from
 * the picture as it was. Alpha stays; fully transparent pixels and the one-pixel border of the
 * screen are left alone. Nothing happens for a strength of 0 or less (or not a number); a
 * strength above 1e300 acts as 1e300.
 */
export function sharpenPixels(block: PixelBlock, strength: number): void {
  const { width, height, data } = block;
  if (!(strength > 0) || width < 3 || height < 3) return;
  const s = Math.min(strength, STRONGEST);
  const center = 1 + 4 * s;
  const edge = -s;
  const source = copyOfBytes(block);
  const row = width * 4;
  for (let y = 1; y < height - 1; y++) {
    for (let i = y * row + 4, end = (y + 1) * row - 4; i < end; i += 4) {
      if (source[i + 3] === 0) continue;
      // The reference's order of additions, so rounding matches it for any strength.
      for (let c = i; c < i + 3; c++) {
        let sum = (source[c] as number) * center;
        sum += (source[c - row] as number) * edge;
        sum += (source[c + row] as number) * edge;
        sum += (source[c - 4] as number) * edge;
        sum += (source[c + 4] as number) * edge;
        data[c] = Math.round(sum); // the clamped array holds it to 0..255
      }
    }
  }
}
