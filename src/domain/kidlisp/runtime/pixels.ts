import type { PixelBlock } from './types.js';

/**
 * Whole-screen pixel transforms on RGBA blocks, in place. Pixels that a transform pulls from
 * outside the screen wrap around to the other side, so feedback loops keep the screen full.
 */

/** A 32-bit view of the block (one element a pixel), or a copy when the bytes are misaligned. */
function pixelsOf(block: PixelBlock): { view: Uint32Array; commit: () => void } {
  const { data } = block;
  if (data.byteOffset % 4 === 0) {
    return { view: new Uint32Array(data.buffer, data.byteOffset, data.length >> 2), commit() {} };
  }
  const copy = new Uint8ClampedArray(data);
  return {
    view: new Uint32Array(copy.buffer, 0, copy.length >> 2),
    commit: () => data.set(copy),
  };
}

function wrap(value: number, size: number): number {
  if (value >= 0 && value < size) return value;
  const r = value % size;
  return r < 0 ? r + size : r;
}

// The screen as it was before a transform, kept between calls (no 256 KB allocation a frame).
let before = new Uint32Array(0);

/** A copy of `view` in the scratch array: transforms read from it while they write `view`. */
function copyOf(view: Uint32Array): Uint32Array {
  if (before.length !== view.length) before = new Uint32Array(view.length);
  before.set(view);
  return before;
}

/** Moves the picture by whole pixels (dx right, dy down), wrapping at the edges. */
export function scrollPixels(block: PixelBlock, dx: number, dy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0) return;
  const sx = wrap(Math.round(dx), width);
  const sy = wrap(Math.round(dy), height);
  if (sx === 0 && sy === 0) return;
  const { view, commit } = pixelsOf(block);
  const source = copyOf(view);
  for (let y = 0; y < height; y++) {
    const from = y * width;
    const to = wrap(y + sy, height) * width;
    // The row's tail moves to the front of the destination row, the rest after it.
    view.set(source.subarray(from + width - sx, from + width), to);
    view.set(source.subarray(from, from + width - sx), to + sx);
  }
  commit();
}

/** Scales the picture about (cx, cy) by `factor` (above 1 magnifies), nearest pixel. */
export function zoomPixels(block: PixelBlock, factor: number, cx: number, cy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0 || !(factor > 0) || factor === 1) return;
  const columns = new Float32Array(width);
  for (let x = 0; x < width; x++)
    columns[x] = wrap(Math.floor(cx + (x + 0.5 - cx) / factor), width);
  const { view, commit } = pixelsOf(block);
  const source = copyOf(view);
  for (let y = 0; y < height; y++) {
    const row = wrap(Math.floor(cy + (y + 0.5 - cy) / factor), height) * width;
    const to = y * width;
    for (let x = 0; x < width; x++) view[to + x] = source[row + (columns[x] ?? 0)] ?? 0;
  }
  commit();
}

/** Rotates the picture by `degrees` (clockwise on screen) about (cx, cy), nearest pixel. */
export function spinPixels(block: PixelBlock, degrees: number, cx: number, cy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0 || !Number.isFinite(degrees) || degrees % 360 === 0) return;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const { view, commit } = pixelsOf(block);
  const source = copyOf(view);
  for (let y = 0; y < height; y++) {
    const ry = y + 0.5 - cy;
    // Inverse rotation: where each destination pixel comes from.
    let sx = cx + (0.5 - cx) * cos + ry * sin;
    let sy = cy - (0.5 - cx) * sin + ry * cos;
    const to = y * width;
    for (let x = 0; x < width; x++) {
      const px = wrap(Math.floor(sx), width);
      const py = wrap(Math.floor(sy), height);
      view[to + x] = source[py * width + px] ?? 0;
      sx += cos;
      sy -= sin;
    }
  }
  commit();
}

// Scratch kept between calls (no allocations a frame): the horizontal pass's output, and the
// vertical pass's running sums (one per byte of a row).
let across = new Float32Array(0);
let columnSums = new Float64Array(0);

/**
 * A box blur of the given radius (pixels), horizontal then vertical; edges repeat. Each pass
 * keeps running sums, so the cost does not depend on the radius; the vertical pass walks the
 * rows in order (a sum per column), which keeps the reads sequential. Every intermediate value
 * is a float32 (as a Float32Array holds it) and the sums of such values are exact in a double,
 * so the order of the additions does not change a byte.
 */
export function blurPixels(block: PixelBlock, radius: number): void {
  const { width, height, data } = block;
  const r = Math.min(64, Math.round(radius));
  if (r <= 0 || width === 0 || height === 0) return;
  if (across.length !== data.length) across = new Float32Array(data.length);
  if (columnSums.length !== width * 4) columnSums = new Float64Array(width * 4);
  const scale = 1 / (r * 2 + 1);
  blurRows(data, across, width, height, r, scale);
  blurColumns(across, data, width, height, r, scale, columnSums);
}

/** The horizontal pass: each row's running sums over 2r+1 pixels, four channels at once. */
function blurRows(
  from: ArrayLike<number>,
  to: Float32Array,
  width: number,
  height: number,
  r: number,
  scale: number,
): void {
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    const base = y * width * 4;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = -r; i <= r; i++) {
      const at = base + (i < 0 ? 0 : i > last ? last : i) * 4;
      s0 += from[at] as number;
      s1 += from[at + 1] as number;
      s2 += from[at + 2] as number;
      s3 += from[at + 3] as number;
    }
    for (let x = 0; x < width; x++) {
      const out = base + x * 4;
      to[out] = s0 * scale;
      to[out + 1] = s1 * scale;
      to[out + 2] = s2 * scale;
      to[out + 3] = s3 * scale;
      const ahead = x + r + 1;
      const behind = x - r;
      const add = base + (ahead > last ? last : ahead) * 4;
      const remove = base + (behind < 0 ? 0 : behind) * 4;
      s0 += (from[add] as number) - (from[remove] as number);
      s1 += (from[add + 1] as number) - (from[remove + 1] as number);
      s2 += (from[add + 2] as number) - (from[remove + 2] as number);
      s3 += (from[add + 3] as number) - (from[remove + 3] as number);
    }
  }
}

/**
 * The vertical pass, row after row: `sums` holds each byte column's running sum over 2r+1 rows.
 * A result is rounded to a float32 first, then to a byte, as storing it in a Float32Array and
 * copying that into the block would.
 */
function blurColumns(
  from: Float32Array,
  to: PixelBlock['data'],
  width: number,
  height: number,
  r: number,
  scale: number,
  sums: Float64Array,
): void {
  const rowBytes = width * 4;
  const last = height - 1;
  sums.fill(0);
  for (let i = -r; i <= r; i++) {
    const row = (i < 0 ? 0 : i > last ? last : i) * rowBytes;
    for (let k = 0; k < rowBytes; k++) sums[k] = (sums[k] as number) + (from[row + k] as number);
  }
  for (let y = 0; y < height; y++) {
    const out = y * rowBytes;
    const ahead = y + r + 1;
    const behind = y - r;
    const add = (ahead > last ? last : ahead) * rowBytes;
    const remove = (behind < 0 ? 0 : behind) * rowBytes;
    for (let k = 0; k < rowBytes; k++) {
      const sum = sums[k] as number;
      to[out + k] = Math.fround(sum * scale);
      sums[k] = sum + ((from[add + k] as number) - (from[remove + k] as number));
    }
  }
}

export function invertPixels(block: PixelBlock): void {
  const { data } = block;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = 255 - (data[i] ?? 0);
    data[i + 1] = 255 - (data[i + 1] ?? 0);
    data[i + 2] = 255 - (data[i + 2] ?? 0);
  }
}

/** Scales each color channel's distance from mid-grey by `amount` (1 changes nothing). */
export function contrastPixels(block: PixelBlock, amount: number): void {
  if (!Number.isFinite(amount) || amount === 1) return;
  const { data } = block;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = ((data[i] ?? 0) - 128) * amount + 128;
    data[i + 1] = ((data[i + 1] ?? 0) - 128) * amount + 128;
    data[i + 2] = ((data[i + 2] ?? 0) - 128) * amount + 128;
  }
}

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
  const columns = new Float32Array(right - left);
  for (let tx = left; tx < right; tx++) {
    columns[tx - left] = Math.min(
      sourceWidth - 1,
      Math.floor(((tx - x + 0.5) * sourceWidth) / width),
    );
  }
  for (let ty = top; ty < bottom; ty++) {
    const sy = Math.min(sourceHeight - 1, Math.floor(((ty - y + 0.5) * sourceHeight) / height));
    for (let tx = left; tx < right; tx++) {
      const si = (sy * sourceWidth + (columns[tx - left] ?? 0)) * 4;
      const ti = (ty * targetWidth + tx) * 4;
      const alpha = ((s[si + 3] ?? 0) / 255) * opacity;
      if (alpha <= 0) continue;
      const keep = 1 - alpha;
      t[ti] = (s[si] ?? 0) * alpha + (t[ti] ?? 0) * keep;
      t[ti + 1] = (s[si + 1] ?? 0) * alpha + (t[ti + 1] ?? 0) * keep;
      t[ti + 2] = (s[si + 2] ?? 0) * alpha + (t[ti + 2] ?? 0) * keep;
      t[ti + 3] = 255 * alpha + (t[ti + 3] ?? 0) * keep;
    }
  }
}
