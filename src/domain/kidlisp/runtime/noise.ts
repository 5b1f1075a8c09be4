import { pixelView } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * `noise [variant]`, as the reference's graph.mjs `noise16` family: every pixel becomes opaque
 * and each color channel one of 17 levels, `min(16 i, 255)` for i drawn uniformly from 0..16,
 * then scaled per channel by the variant (`digitpain` 0.6 / 0.15 / 0.55, `aesthetic`
 * 0.4 / 0.15 / 0.8) and rounded as a clamped byte array rounds. `sotce` instead sets, each with
 * one chance in two, red to a level from 14..16, green and blue to 0.9 times a level from 8..10,
 * keeping the channels it does not set. Anything else is the plain variant.
 *
 * The reference draws these with `Math.random`, so its noise differs on every view; here the
 * numbers come from a generator of their own, seeded from the program's seed, so a seeded render
 * repeats and the program's `random` and `?` draw the same numbers as without `noise`.
 */

/** xorshift32 (Marsaglia): fast, and good enough for pixels. */
export class NoiseRandom {
  private state: number;

  constructor(seed: number) {
    this.state = Math.imul(Math.trunc(seed) | 0, 0x9e3779b1) >>> 0 || 0x6d2b79f5;
  }

  /** An integer in 0..count-1. */
  below(count: number): number {
    let s = this.state;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.state = s >>> 0;
    return Math.floor((this.state / 4294967296) * count);
  }
}

const LEVELS = 17;
const level = (i: number) => Math.min(i * 16, 255);

/** The 32-bit pixel value whose byte `channel` (0 red .. 3 alpha) is `value`, all others 0. */
function inChannel(channel: number, value: number): number {
  const bytes = new Uint8ClampedArray(4);
  bytes[channel] = value; // rounds half to even and clamps, as the reference's writes do
  return new Uint32Array(bytes.buffer)[0] as number;
}

/** Per channel, the 17 levels scaled and placed in their byte. */
function palette(red: number, green: number, blue: number): Uint32Array[] {
  return [red, green, blue].map(
    (scale, channel) =>
      new Uint32Array(
        Array.from({ length: LEVELS }, (_, i) => inChannel(channel, level(i) * scale)),
      ),
  );
}

const VARIANTS: Record<string, Uint32Array[]> = {
  plain: palette(1, 1, 1),
  digitpain: palette(0.6, 0.15, 0.55),
  aesthetic: palette(0.4, 0.15, 0.8),
};
const OPAQUE = inChannel(3, 255);

export function noisePixels(block: PixelBlock, variant: string, random: NoiseRandom): void {
  if (variant === 'sotce') {
    sotceNoise(block, random);
    return;
  }
  const [red, green, blue] = VARIANTS[variant] ?? (VARIANTS.plain as Uint32Array[]);
  if (red === undefined || green === undefined || blue === undefined) return;
  const { view, commit } = pixelView(block);
  for (let i = 0; i < view.length; i++) {
    view[i] =
      (red[random.below(LEVELS)] as number) |
      (green[random.below(LEVELS)] as number) |
      (blue[random.below(LEVELS)] as number) |
      OPAQUE;
  }
  commit();
}

function sotceNoise(block: PixelBlock, random: NoiseRandom): void {
  const { data } = block;
  for (let i = 0; i < data.length; i += 4) {
    if (random.below(2) === 0) data[i] = level(14 + random.below(3));
    if (random.below(2) === 0) data[i + 1] = level(8 + random.below(3)) * 0.9;
    if (random.below(2) === 0) data[i + 2] = level(8 + random.below(3)) * 0.9;
    data[i + 3] = 255;
  }
}
