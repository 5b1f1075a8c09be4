import { fadeColorAt } from '../runtime/paint.js';
import type { Area, Paint, PixelBlock } from '../runtime/types.js';
import { blendPixel, type Ink } from './pixels.js';

/** Pixels found by `floodRegion`: the first `count` entries of `indices` (pixel numbers). */
export interface Region {
  indices: Int32Array;
  count: number;
}

const EMPTY: Region = { indices: new Int32Array(0), count: 0 };

/**
 * The pixels a flood fill at (x, y) covers, by the reference's rules (graph.mjs `flood`): nothing
 * when (x, y) is off the screen or its pixel is fully clear (alpha 0); otherwise every pixel
 * reached through up, down, left and right neighbours (never diagonals) whose red, green, blue
 * and alpha all equal the starting pixel's.
 */
export function floodRegion(block: PixelBlock, x: number, y: number): Region {
  const { width, height, data } = block;
  if (!(x >= 0 && y >= 0 && x < width && y < height)) return EMPTY;
  const start = x + y * width;
  const at = start * 4;
  if (data[at + 3] === 0) return EMPTY;
  const [r, g, b, a] = [data[at], data[at + 1], data[at + 2], data[at + 3]];
  const matches = (pixel: number): boolean => {
    const i = pixel * 4;
    return data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === a;
  };
  const seen = new Uint8Array(width * height);
  // Every pixel enters the stack at most once (it is marked when pushed), so the region's own
  // list can be the stack: entries below `next` are done, the rest wait.
  const indices = new Int32Array(width * height);
  let count = 0;
  const visit = (pixel: number): void => {
    if (seen[pixel] === 1) return;
    seen[pixel] = 1;
    if (matches(pixel)) indices[count++] = pixel;
  };
  visit(start);
  for (let next = 0; next < count; next++) {
    const pixel = indices[next] as number;
    const px = pixel % width;
    if (px + 1 < width) visit(pixel + 1);
    if (px > 0) visit(pixel - 1);
    if (pixel + width < width * height) visit(pixel + width);
    if (pixel >= width) visit(pixel - width);
  }
  return { indices, count };
}

/** The ink a paint puts at (x, y), as the rasterizer reads it (raster-surface.ts). */
function inkAt(paint: Paint, x: number, y: number, ink: Ink): Ink {
  if (paint.kind === 'erase') {
    ink.a = paint.alpha;
    ink.erase = true;
    return ink;
  }
  const [r, g, b, a] = paint.kind === 'solid' ? paint.color : fadeColorAt(paint, x, y);
  ink.r = r;
  ink.g = g;
  ink.b = b;
  ink.a = a;
  ink.erase = false;
  return ink;
}

/** Paints a region pixel by pixel as the reference's `plot` does, inside `clip` when given. */
export function paintRegion(block: PixelBlock, region: Region, paint: Paint, clip?: Area): void {
  const { width, data } = block;
  const ink: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };
  for (let n = 0; n < region.count; n++) {
    const pixel = region.indices[n] as number;
    const x = pixel % width;
    const y = (pixel - x) / width;
    if (clip !== undefined && !inside(clip, x, y)) continue;
    blendPixel(data, pixel * 4, inkAt(paint, x, y, ink));
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
