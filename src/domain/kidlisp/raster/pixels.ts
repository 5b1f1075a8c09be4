/**
 * How one pixel is written, following the reference rasterizer's rules (aesthetic.computer's
 * graph.mjs) byte for byte. The buffer is a Uint8ClampedArray, so every store rounds half to even
 * and clamps to 0..255 exactly as the reference's does.
 *
 * Two blending rules exist there and both are kept:
 * - `blendPixel` (points, horizontal spans, filled shapes): over a pixel that is not opaque, the
 *   float "over" formula; over an opaque one, `(a + 1) * src + (256 - (a + 1)) * dst >> 8`.
 * - `lineBlendPixel` (the steps of a sloped or vertical line): `(src * a + dst * (255 - a)) >> 8`
 *   for each channel, alpha `a + (dst * (255 - a) >> 8)`.
 */
export type Pixels = Uint8ClampedArray;

/** An ink: r, g, b, a already floored; `erase` lowers alpha by a / 255 instead of painting. */
export interface Ink {
  r: number;
  g: number;
  b: number;
  a: number;
  erase: boolean;
}

const EPSILON = 1e-10;

/** Erasing, an opaque ink and a clear one need no blending; true when one of them applied. */
function settledWithoutBlending(px: Pixels, i: number, ink: Ink): boolean {
  if (ink.erase) {
    px[i + 3] = (px[i + 3] as number) * (1 - ink.a / 255);
    return true;
  }
  if (ink.a === 255) {
    replacePixel(px, i, ink);
    return true;
  }
  return ink.a === 0;
}

export function blendPixel(px: Pixels, i: number, ink: Ink): void {
  if (settledWithoutBlending(px, i, ink)) return;
  const { r, g, b, a } = ink;
  const dstAlpha = px[i + 3] as number;
  if (dstAlpha < 255) {
    const as = a / 255;
    const ad = dstAlpha / 255;
    const combined = as + (1 - as) * ad;
    if (combined > EPSILON) {
      px[i] = (r * as + (px[i] as number) * (1 - as) * ad) / (combined + EPSILON);
      px[i + 1] = (g * as + (px[i + 1] as number) * (1 - as) * ad) / (combined + EPSILON);
      px[i + 2] = (b * as + (px[i + 2] as number) * (1 - as) * ad) / (combined + EPSILON);
      px[i + 3] = combined * 255;
    }
    return;
  }
  const alpha = a + 1;
  const inverse = 256 - alpha;
  px[i] = (alpha * r + inverse * (px[i] as number)) >> 8;
  px[i + 1] = (alpha * g + inverse * (px[i + 1] as number)) >> 8;
  px[i + 2] = (alpha * b + inverse * (px[i + 2] as number)) >> 8;
  px[i + 3] = 255;
}

/**
 * `blendPixel` for `count` pixels in a row from byte `first`, one ink: the same bytes, with the
 * ink's products computed once (a translucent `coat` over the whole screen is 65,536 pixels).
 */
export function blendSpan(px: Pixels, first: number, count: number, ink: Ink): void {
  const end = first + count * 4;
  if (ink.erase || ink.a === 255 || ink.a === 0) {
    for (let i = first; i < end; i += 4) blendPixel(px, i, ink);
    return;
  }
  const alpha = ink.a + 1;
  const inverse = 256 - alpha;
  const red = alpha * ink.r;
  const green = alpha * ink.g;
  const blue = alpha * ink.b;
  for (let i = first; i < end; i += 4) {
    if ((px[i + 3] as number) < 255) {
      blendPixel(px, i, ink);
      continue;
    }
    px[i] = (red + inverse * (px[i] as number)) >> 8;
    px[i + 1] = (green + inverse * (px[i + 1] as number)) >> 8;
    px[i + 2] = (blue + inverse * (px[i + 2] as number)) >> 8;
  }
}

export function lineBlendPixel(px: Pixels, i: number, ink: Ink): void {
  if (settledWithoutBlending(px, i, ink)) return;
  const { r, g, b, a } = ink;
  const inverse = 255 - a;
  px[i] = (r * a + (px[i] as number) * inverse) >> 8;
  px[i + 1] = (g * a + (px[i + 1] as number) * inverse) >> 8;
  px[i + 2] = (b * a + (px[i + 2] as number) * inverse) >> 8;
  px[i + 3] = a + (((px[i + 3] as number) * inverse) >> 8);
}

/** Writes the ink as it is, no blending (what `wipe` does). */
export function replacePixel(px: Pixels, i: number, ink: Ink): void {
  px[i] = ink.r;
  px[i + 1] = ink.g;
  px[i + 2] = ink.b;
  px[i + 3] = ink.a;
}
