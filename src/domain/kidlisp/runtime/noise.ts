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

/**
 * Every opaque color of a variant, 17 x 17 x 17 of them: one draw from 0..4912 picks a pixel's
 * three levels at once, each uniform over 0..16, as three separate draws would.
 */
function colors(red: number, green: number, blue: number): Uint32Array {
  const table = new Uint32Array(LEVELS ** 3);
  for (let r = 0; r < LEVELS; r++)
    for (let g = 0; g < LEVELS; g++)
      for (let b = 0; b < LEVELS; b++)
        table[(r * LEVELS + g) * LEVELS + b] =
          inChannel(0, level(r) * red) |
          inChannel(1, level(g) * green) |
          inChannel(2, level(b) * blue) |
          inChannel(3, 255);
  return table;
}

const VARIANTS = new Map<string, Uint32Array>();
const PLAIN = [1, 1, 1] as const;
const SCALES: Record<string, readonly [number, number, number]> = {
  digitpain: [0.6, 0.15, 0.55],
  aesthetic: [0.4, 0.15, 0.8],
};

/** A variant's colors, built the first time it is used. */
function colorsOf(variant: string): Uint32Array {
  const name = variant in SCALES ? variant : 'plain';
  let table = VARIANTS.get(name);
  if (table === undefined) {
    table = colors(...(SCALES[name] ?? PLAIN));
    VARIANTS.set(name, table);
  }
  return table;
}

export function noisePixels(block: PixelBlock, variant: string, random: NoiseRandom): void {
  if (variant === 'sotce') {
    sotceNoise(block, random);
    return;
  }
  const table = colorsOf(variant);
  const { view, commit } = pixelView(block);
  for (let i = 0; i < view.length; i++) view[i] = table[random.below(table.length)] as number;
  commit();
}

/**
 * `sotce`: per channel six equal chances, three keep the channel and three set one of its
 * levels, so one draw from 0..215 decides a pixel. Each case is a mask of the channels kept
 * and the bytes set (alpha always 255).
 */
const SOTCE = (() => {
  const keep = new Uint32Array(216);
  const set = new Uint32Array(216);
  for (let draw = 0; draw < 216; draw++) {
    const cases = [draw % 6, Math.floor(draw / 6) % 6, Math.floor(draw / 36)];
    const values = [
      level(11 + (cases[0] ?? 0)),
      level(5 + (cases[1] ?? 0)) * 0.9,
      level(5 + (cases[2] ?? 0)) * 0.9,
    ];
    let kept = 0;
    let written = inChannel(3, 255);
    cases.forEach((outcome, channel) => {
      if (outcome < 3) kept |= inChannel(channel, 255);
      else written |= inChannel(channel, values[channel] ?? 0);
    });
    keep[draw] = kept;
    set[draw] = written;
  }
  return { keep, set };
})();

function sotceNoise(block: PixelBlock, random: NoiseRandom): void {
  const { view, commit } = pixelView(block);
  const { keep, set } = SOTCE;
  for (let i = 0; i < view.length; i++) {
    const draw = random.below(216);
    view[i] = ((view[i] as number) & (keep[draw] as number)) | (set[draw] as number);
  }
  commit();
}
