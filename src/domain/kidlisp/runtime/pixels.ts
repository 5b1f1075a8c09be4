import { commitPixels, copyOfPixels, pixelView } from './pixel-view.js';
import type { PixelBlock } from './types.js';
import { spinInKernel, zoomInKernel } from './wasm/pixel-kernels.js';

export { blurPixels } from './box-blur.js';

/**
 * Whole-screen pixel transforms on RGBA blocks, in place. Pixels that a transform pulls from
 * outside the screen wrap around to the other side, so feedback loops keep the screen full.
 */

/** A whole number brought into 0..size-1; one period away (what spin and zoom mostly ask) costs an addition. */
function wrap(value: number, size: number): number {
  if (value >= 0) {
    if (value < size) return value;
    return value < size * 2 ? value - size : value % size;
  }
  if (value >= -size) return value + size;
  const r = value % size;
  return r < 0 ? r + size : 0;
}

/** Moves the picture by whole pixels (dx right, dy down), wrapping at the edges. */
export function scrollPixels(block: PixelBlock, dx: number, dy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0) return;
  const sx = wrap(Math.round(dx), width);
  const sy = wrap(Math.round(dy), height);
  if (sx === 0 && sy === 0) return;
  const view = pixelView(block);
  const source = copyOfPixels(view);
  for (let y = 0; y < height; y++) {
    const from = y * width;
    const to = wrap(y + sy, height) * width;
    // The row's tail moves to the front of the destination row, the rest after it.
    view.set(source.subarray(from + width - sx, from + width), to);
    view.set(source.subarray(from, from + width - sx), to + sx);
  }
  commitPixels(block, view);
}

// The source column of each screen column and the first source pixel of each screen row for
// `zoom`, kept between calls.
let columns = new Int32Array(0);
let rows = new Int32Array(0);

/** Scales the picture about (cx, cy) by `factor` (above 1 magnifies), nearest pixel. */
export function zoomPixels(block: PixelBlock, factor: number, cx: number, cy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0 || !(factor > 0) || factor === 1) return;
  if (columns.length !== width) columns = new Int32Array(width);
  for (let x = 0; x < width; x++)
    columns[x] = wrap(Math.floor(cx + (x + 0.5 - cx) / factor), width);
  if (rows.length !== height) rows = new Int32Array(height);
  for (let y = 0; y < height; y++)
    rows[y] = wrap(Math.floor(cy + (y + 0.5 - cy) / factor), height) * width;
  if (zoomInKernel(block, rows, columns)) return;
  const view = pixelView(block);
  const source = copyOfPixels(view);
  for (let y = 0; y < height; y++) {
    const row = rows[y] as number;
    const to = y * width;
    for (let x = 0; x < width; x++) view[to + x] = source[row + (columns[x] ?? 0)] ?? 0;
  }
  commitPixels(block, view);
}

/** Rotates the picture by `degrees` (clockwise on screen) about (cx, cy), nearest pixel. */
export function spinPixels(block: PixelBlock, degrees: number, cx: number, cy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0 || !Number.isFinite(degrees) || degrees % 360 === 0) return;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  if (spinInKernel(block, cos, sin, cx, cy)) return;
  const view = pixelView(block);
  const source = copyOfPixels(view);
  for (let y = 0; y < height; y++) {
    const ry = y + 0.5 - cy;
    // Inverse rotation: where each destination pixel comes from.
    let sx = cx + (0.5 - cx) * cos + ry * sin;
    let sy = cy - (0.5 - cx) * sin + ry * cos;
    const to = y * width;
    for (let x = 0; x < width; x++) {
      // On the screen, truncating is flooring (and cheaper); off it, floor and wrap.
      const px = sx >= 0 && sx < width ? sx | 0 : wrap(Math.floor(sx), width);
      const py = sy >= 0 && sy < height ? sy | 0 : wrap(Math.floor(sy), height);
      view[to + x] = source[py * width + px] ?? 0;
      sx += cos;
      sy -= sin;
    }
  }
  commitPixels(block, view);
}

/** The color bytes of a pixel as one 32-bit element (whatever the platform's byte order). */
const COLOR_BYTES = new Int32Array(new Uint8Array([255, 255, 255, 0]).buffer)[0] as number;

/** Inverts the colors, keeping alpha: one exclusive-or a pixel. */
export function invertPixels(block: PixelBlock): void {
  const view = pixelView(block);
  for (let i = 0; i < view.length; i++) view[i] = (view[i] as number) ^ COLOR_BYTES;
  commitPixels(block, view);
}

// What `contrast` makes of each byte value, for the amount it was made for.
const contrasted = new Uint8ClampedArray(256);

/**
 * Scales each color channel's distance from mid-grey by `amount` (1 changes nothing): each of
 * the 256 values is worked out once a call, then looked up.
 */
export function contrastPixels(block: PixelBlock, amount: number): void {
  if (!Number.isFinite(amount) || amount === 1) return;
  const table = contrasted;
  for (let value = 0; value < 256; value++) table[value] = (value - 128) * amount + 128;
  const { data } = block;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = table[data[i] as number] as number;
    data[i + 1] = table[data[i + 1] as number] as number;
    data[i + 2] = table[data[i + 2] as number] as number;
  }
}

// Scratch for `compositePixels`, kept between calls: each target column's source column, and
// each source alpha byte's weight.
let sourceColumns = new Int32Array(0);
const weights = new Float64Array(256);

/**
 * Draws `source` over `target` into the rectangle (x, y, width, height), scaled to the nearest
 * pixel, with its own alpha multiplied by `opacity` (0..1): source-over blending.
 */
export function compositePixels(
  target: PixelBlock,
  source: PixelBlock,
  x: number,
  y: number,
  width: number,
  height: number,
  opacity: number,
): void {
  const left = Math.max(0, Math.round(x));
  const top = Math.max(0, Math.round(y));
  const right = Math.min(target.width, Math.round(x + width));
  const bottom = Math.min(target.height, Math.round(y + height));
  if (right <= left || bottom <= top || source.width === 0 || source.height === 0) return;
  // Read sizes once: on some canvases (@napi-rs/canvas) they are native getters.
  const t = target.data;
  const s = source.data;
  const targetWidth = target.width;
  const sourceWidth = source.width;
  const sourceHeight = source.height;
  if (sourceColumns.length < right - left) sourceColumns = new Int32Array(right - left);
  const columns = sourceColumns;
  for (let tx = left; tx < right; tx++) {
    columns[tx - left] = Math.min(
      sourceWidth - 1,
      Math.floor(((tx - x + 0.5) * sourceWidth) / width),
    );
  }
  // The blending weight of each source alpha byte, worked out once a call.
  for (let a = 0; a < 256; a++) weights[a] = (a / 255) * opacity;
  for (let ty = top; ty < bottom; ty++) {
    const sy = Math.min(sourceHeight - 1, Math.floor(((ty - y + 0.5) * sourceHeight) / height));
    for (let tx = left; tx < right; tx++) {
      const si = (sy * sourceWidth + (columns[tx - left] as number)) * 4;
      const ti = (ty * targetWidth + tx) * 4;
      const alpha = weights[s[si + 3] as number] as number;
      if (alpha <= 0) continue;
      const keep = 1 - alpha;
      t[ti] = (s[si] ?? 0) * alpha + (t[ti] ?? 0) * keep;
      t[ti + 1] = (s[si + 1] ?? 0) * alpha + (t[ti + 1] ?? 0) * keep;
      t[ti + 2] = (s[si + 2] ?? 0) * alpha + (t[ti + 2] ?? 0) * keep;
      t[ti + 3] = 255 * alpha + (t[ti + 3] ?? 0) * keep;
    }
  }
}
