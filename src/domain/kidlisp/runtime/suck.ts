import { copyOfPixels, pixelView } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * One step of `suck`, as the reference's graph.mjs `suck` does it: every pixel at distance d
 * (1 or more) from (cx, cy) takes the color found on the same ray at distance d + amount (a
 * positive amount pulls the picture in towards the center, a negative one blows it out), read
 * from the picture as it was, with bilinear interpolation between the four nearest pixels,
 * each channel rounded; a source off the screen is held to its edge (no wrap-around). Pixels
 * closer than 1 to the center stay. `amount` is what the word has gathered (`effect-words.ts`).
 *
 * Where each pixel comes from depends only on the size, the amount and the center, which a
 * work usually keeps from frame to frame, so that map is kept and reused.
 */
export function suckPixels(block: PixelBlock, amount: number, cx: number, cy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0 || !Number.isFinite(amount) || amount === 0) return;
  const map = mapFor(width, height, amount, cx, cy);
  const { view, commit } = pixelView(block);
  const before = copyOfPixels(view);
  const { from, across, down, wx: wxs, wy: wys } = map;
  for (let p = 0; p < from.length; p++) {
    const a = from[p] as number;
    if (a < 0) continue;
    const b = a + (across[p] as number);
    const c = a + (down[p] as number);
    const d = c + (across[p] as number);
    const wx = wxs[p] as number;
    const wy = wys[p] as number;
    const pa = before[a] as number;
    const pb = before[b] as number;
    const pc = before[c] as number;
    const pd = before[d] as number;
    if ((wx === 0 && wy === 0) || (pa === pb && pa === pc && pa === pd)) {
      // Exactly on a pixel, or among four of one color: that color as it is (the mix of equal
      // bytes rounds back to them).
      view[p] = pa;
      continue;
    }
    // Four equal alphas (an opaque picture) mix back to that alpha.
    const alpha = (pa >>> ALPHA) & 255;
    const mixedAlpha =
      ((pb >>> ALPHA) & 255) === alpha &&
      ((pc >>> ALPHA) & 255) === alpha &&
      ((pd >>> ALPHA) & 255) === alpha
        ? alpha
        : blend(pa, pb, pc, pd, wx, wy, ALPHA);
    // Each mix is a whole number in 0..255, so the four bytes are one 32-bit write.
    view[p] =
      (blend(pa, pb, pc, pd, wx, wy, RED) << RED) |
      (blend(pa, pb, pc, pd, wx, wy, GREEN) << GREEN) |
      (blend(pa, pb, pc, pd, wx, wy, BLUE) << BLUE) |
      (mixedAlpha << ALPHA);
  }
  commit();
}

/** Where each channel sits in a 32-bit pixel, by the machine's byte order. */
const [RED, GREEN, BLUE, ALPHA] =
  new Uint8Array(Uint32Array.of(1).buffer)[0] === 1 ? [0, 8, 16, 24] : [24, 16, 8, 0];

/** The reference's bilinear mix of one channel, with its order of operations and rounding. */
function blend(
  a: number,
  b: number,
  c: number,
  d: number,
  wx: number,
  wy: number,
  shift: number,
): number {
  const upper = ((a >>> shift) & 255) * (1 - wx) + ((b >>> shift) & 255) * wx;
  const lower = ((c >>> shift) & 255) * (1 - wx) + ((d >>> shift) & 255) * wx;
  return Math.round(upper * (1 - wy) + lower * wy);
}

interface SuckMap {
  key: string;
  /** The top-left source pixel of each pixel, or -1 where the pixel stays. */
  from: Int32Array;
  /** 1 when the right-hand source pixel is the next one (0 at the right edge). */
  across: Uint8Array;
  /** The row below's offset (0 at the bottom edge). */
  down: Int32Array;
  wx: Float64Array;
  wy: Float64Array;
}

let kept: SuckMap | undefined;

function mapFor(width: number, height: number, amount: number, cx: number, cy: number): SuckMap {
  const key = `${width} ${height} ${amount} ${cx} ${cy}`;
  if (kept?.key === key) return kept;
  const n = width * height;
  const map: SuckMap =
    kept !== undefined && kept.from.length === n
      ? { ...kept, key }
      : {
          key,
          from: new Int32Array(n),
          across: new Uint8Array(n),
          down: new Int32Array(n),
          wx: new Float64Array(n),
          wy: new Float64Array(n),
        };
  const lastX = width - 1;
  const lastY = height - 1;
  for (let y = 0, p = 0; y < height; y++) {
    const dy = y - cy;
    for (let x = 0; x < width; x++, p++) {
      const dx = x - cx;
      const distance = Math.sqrt(dx * dx + dy * dy);
      // Near the center nothing moves; a center so far away that the distance overflows neither.
      if (!(distance >= 1 && distance < Number.POSITIVE_INFINITY)) {
        map.from[p] = -1;
        continue;
      }
      const scale = (distance + amount) / distance;
      const sx = Math.max(0, Math.min(lastX, cx + dx * scale));
      const sy = Math.max(0, Math.min(lastY, cy + dy * scale));
      const left = Math.floor(sx);
      const top = Math.floor(sy);
      map.from[p] = top * width + left;
      map.across[p] = left < lastX ? 1 : 0;
      map.down[p] = top < lastY ? width : 0;
      map.wx[p] = sx - left;
      map.wy[p] = sy - top;
    }
  }
  kept = map;
  return map;
}
