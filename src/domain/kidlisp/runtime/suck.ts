import { copyOfBytes } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * One step of `suck`, as the reference's graph.mjs `suck` does it: every pixel at distance d
 * (1 or more) from (cx, cy) takes the color found on the same ray at distance d + amount (a
 * positive amount pulls the picture in towards the center, a negative one blows it out), read
 * from the picture as it was, with bilinear interpolation between the four nearest pixels,
 * each channel rounded; a source off the screen is held to its edge (no wrap-around). Pixels
 * closer than 1 to the center stay. `amount` is what the word has gathered (`effect-words.ts`).
 */
export function suckPixels(block: PixelBlock, amount: number, cx: number, cy: number): void {
  const { width, height, data } = block;
  if (width === 0 || height === 0 || !Number.isFinite(amount) || amount === 0) return;
  const source = copyOfBytes(block);
  const lastX = width - 1;
  const lastY = height - 1;
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const distance = Math.sqrt(dx * dx + dy * dy);
      // Near the center nothing moves; a center so far away that the distance overflows neither.
      if (!(distance >= 1 && distance < Infinity)) continue;
      const scale = (distance + amount) / distance;
      const sx = Math.max(0, Math.min(lastX, cx + dx * scale));
      const sy = Math.max(0, Math.min(lastY, cy + dy * scale));
      const left = Math.floor(sx);
      const top = Math.floor(sy);
      const wx = sx - left;
      const wy = sy - top;
      const a = (top * width + left) * 4;
      const b = (top * width + Math.min(lastX, left + 1)) * 4;
      const c = (Math.min(lastY, top + 1) * width + left) * 4;
      const d = (Math.min(lastY, top + 1) * width + Math.min(lastX, left + 1)) * 4;
      const to = (y * width + x) * 4;
      for (let k = 0; k < 4; k++) {
        const upper = (source[a + k] as number) * (1 - wx) + (source[b + k] as number) * wx;
        const lower = (source[c + k] as number) * (1 - wx) + (source[d + k] as number) * wx;
        data[to + k] = Math.round(upper * (1 - wy) + lower * wy);
      }
    }
  }
}
