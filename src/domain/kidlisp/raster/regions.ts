import type { Area, Paint, PixelBlock } from '../runtime/types.js';
import { inkAt } from './ink-at.js';
import { blendPixel, type Ink } from './pixels.js';

/** Pixels found by `floodRegion`: the first `count` entries of `indices` (pixel numbers). */
export interface Region {
  indices: Int32Array;
  count: number;
}

// The search's marks and list, kept between fills (a region is painted before the next fill).
let seen = new Uint8Array(0);
let found = new Int32Array(0);

/** One 32-bit number a pixel, for comparing whole colors (a copy when the bytes are misaligned). */
const colorsOf = (data: Uint8ClampedArray): Uint32Array =>
  data.byteOffset % 4 === 0
    ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2)
    : new Uint32Array(new Uint8ClampedArray(data).buffer);

/**
 * The pixels a flood fill at (x, y) covers, by the reference's rules (graph.mjs `flood`): nothing
 * when (x, y) is off the screen or its pixel is fully clear (alpha 0); otherwise every pixel
 * reached through up, down, left and right neighbours (never diagonals) whose red, green, blue
 * and alpha all equal the starting pixel's.
 */
export function floodRegion(block: PixelBlock, x: number, y: number): Region {
  const { width, height, data } = block;
  const size = width * height;
  if (!(x >= 0 && y >= 0 && x < width && y < height)) return { indices: found, count: 0 };
  const start = x + y * width;
  if (data[start * 4 + 3] === 0) return { indices: found, count: 0 };
  const colors = colorsOf(data);
  const target = colors[start];
  if (seen.length !== size) {
    seen = new Uint8Array(size);
    found = new Int32Array(size);
  } else seen.fill(0);
  // Every pixel is listed at most once (it is marked when listed), so the list is also the
  // queue: entries below `next` are done, the rest wait.
  seen[start] = 1;
  found[0] = start;
  let count = 1;
  for (let next = 0; next < count; next++) {
    const pixel = found[next] as number;
    const px = pixel % width;
    const right = pixel + 1;
    const left = pixel - 1;
    const down = pixel + width;
    const up = pixel - width;
    if (px + 1 < width && seen[right] === 0) {
      seen[right] = 1;
      if (colors[right] === target) found[count++] = right;
    }
    if (px > 0 && seen[left] === 0) {
      seen[left] = 1;
      if (colors[left] === target) found[count++] = left;
    }
    if (down < size && seen[down] === 0) {
      seen[down] = 1;
      if (colors[down] === target) found[count++] = down;
    }
    if (up >= 0 && seen[up] === 0) {
      seen[up] = 1;
      if (colors[up] === target) found[count++] = up;
    }
  }
  return { indices: found, count };
}

/** Paints a region pixel by pixel as the reference's `plot` does, inside `clip` when given. */
export function paintRegion(block: PixelBlock, region: Region, paint: Paint, clip?: Area): void {
  const { width, data } = block;
  const ink: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };
  const perPixel = paint.kind === 'fade';
  if (!perPixel) inkAt(paint, 0, 0, ink);
  for (let n = 0; n < region.count; n++) {
    const pixel = region.indices[n] as number;
    if (clip !== undefined || perPixel) {
      const x = pixel % width;
      const y = (pixel - x) / width;
      if (clip !== undefined && !inside(clip, x, y)) continue;
      if (perPixel) inkAt(paint, x, y, ink);
    }
    blendPixel(data, pixel * 4, ink);
  }
}

const inside = (area: Area, x: number, y: number): boolean =>
  x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height;

/** A copy of `area`'s pixels (the part on the screen; pixels off it stay clear). */
export function copyArea(block: PixelBlock, area: Area): PixelBlock {
  const width = Math.max(0, area.width);
  const height = Math.max(0, area.height);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let row = 0; row < height; row++) {
    const y = area.y + row;
    if (y < 0 || y >= block.height) continue;
    const from = Math.max(0, area.x);
    const to = Math.min(block.width, area.x + width);
    if (to <= from) continue;
    data.set(
      block.data.subarray((from + y * block.width) * 4, (to + y * block.width) * 4),
      (from - area.x + row * width) * 4,
    );
  }
  return { width, height, data };
}

/** Blends `source` over `block` with its top-left pixel at (x, y), inside `clip` when given. */
export function blendBlock(
  block: PixelBlock,
  source: PixelBlock,
  x: number,
  y: number,
  clip?: Area,
): void {
  const ink: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };
  const area = clip ?? { x: 0, y: 0, width: block.width, height: block.height };
  const left = Math.max(x, area.x, 0);
  const right = Math.min(x + source.width, area.x + area.width, block.width);
  const top = Math.max(y, area.y, 0);
  const bottom = Math.min(y + source.height, area.y + area.height, block.height);
  for (let py = top; py < bottom; py++) {
    for (let px = left; px < right; px++) {
      const s = (px - x + (py - y) * source.width) * 4;
      ink.r = source.data[s] as number;
      ink.g = source.data[s + 1] as number;
      ink.b = source.data[s + 2] as number;
      ink.a = source.data[s + 3] as number;
      blendPixel(block.data, (px + py * block.width) * 4, ink);
    }
  }
}
