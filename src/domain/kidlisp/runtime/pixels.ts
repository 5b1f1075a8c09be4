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
  const r = value % size;
  return r < 0 ? r + size : r;
}

/** Moves the picture by whole pixels (dx right, dy down), wrapping at the edges. */
export function scrollPixels(block: PixelBlock, dx: number, dy: number): void {
  const { width, height } = block;
  if (width === 0 || height === 0) return;
  const sx = wrap(Math.round(dx), width);
  const sy = wrap(Math.round(dy), height);
  if (sx === 0 && sy === 0) return;
  const { view, commit } = pixelsOf(block);
  const source = view.slice();
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
  const source = view.slice();
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
  const source = view.slice();
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

// Scratch kept between calls (no 1 MB allocations a frame); both passes run Float32 to Float32
// so the hot loop sees one array type.
let across = new Float32Array(0);
let down = new Float32Array(0);

/** A box blur of the given radius (pixels), horizontal then vertical; edges repeat. */
export function blurPixels(block: PixelBlock, radius: number): void {
  const { width, height, data } = block;
  const r = Math.min(64, Math.round(radius));
  if (r <= 0 || width === 0 || height === 0) return;
  if (across.length !== data.length) {
    across = new Float32Array(data.length);
    down = new Float32Array(data.length);
  }
  across.set(data);
  boxPass(across, down, width, height, r, 4, width * 4);
  boxPass(down, across, height, width, r, width * 4, 4);
  data.set(across);
}

/**
 * One direction of the box blur over `lines` lines of `length` pixels; `step` is the byte
 * distance between neighbours along a line, `stride` between the starts of two lines.
 * Running sums (four channels at once) make the cost independent of the radius.
 */
function boxPass(
  from: Float32Array,
  to: Float32Array,
  length: number,
  lines: number,
  r: number,
  step: number,
  stride: number,
): void {
  const scale = 1 / (r * 2 + 1);
  // Every index below is clamped to the line, so the reads are in bounds.
  const last = length - 1;
  for (let line = 0; line < lines; line++) {
    const base = line * stride;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = -r; i <= r; i++) {
      const at = base + Math.min(last, Math.max(0, i)) * step;
      s0 += from[at] as number;
      s1 += from[at + 1] as number;
      s2 += from[at + 2] as number;
      s3 += from[at + 3] as number;
    }
    for (let i = 0; i < length; i++) {
      const out = base + i * step;
      to[out] = s0 * scale;
      to[out + 1] = s1 * scale;
      to[out + 2] = s2 * scale;
      to[out + 3] = s3 * scale;
      const add = base + Math.min(last, i + r + 1) * step;
      const remove = base + Math.max(0, i - r) * step;
      s0 += (from[add] as number) - (from[remove] as number);
      s1 += (from[add + 1] as number) - (from[remove + 1] as number);
      s2 += (from[add + 2] as number) - (from[remove + 2] as number);
      s3 += (from[add + 3] as number) - (from[remove + 3] as number);
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
