import { commitPixels, copyOfPixels, pixelView } from './pixel-view.js';
import type { PixelBlock } from './types.js';
import { blurInKernel } from './wasm/pixel-kernels.js';

/**
 * `blur`: a box blur of radius r, edges repeated. Its definition (the first runtime's; see
 * test/domain/kidlisp/pixels/blur.test.ts): each channel's mean over the 2r+1 pixels of a row,
 * stored as a float32; the mean of those over the 2r+1 rows of a column, as a float32; that
 * value rounded half to even into a byte.
 *
 * Computed here in integers: S, the exact sum of a channel over the (2r+1)^2 pixels of the box,
 * and the byte S / (2r+1)^2 rounded to the nearest. That is the definition's byte: (2r+1)^2 is
 * odd, so S / (2r+1)^2 is never a half and lies at least 1 / (2 (2r+1)^2) >= 1 / 33282 from
 * one (r <= 64), while the definition's value differs from S / (2r+1)^2 by at most 2^-16 = 1 /
 * 65536: each row mean is a float32 below 256, off by at most half its ulp (2^-17), so their mean
 * is too, and the last float32 rounding adds at most 2^-17 (the double arithmetic around them is
 * exact or off by far less). The two therefore round to the same byte. The byte is computed as
 * `(S + area / 2) * (1 / area)` truncated: area / 2 is not whole, so that quotient is never
 * whole either and the multiplication's rounding cannot cross one (checked, when this was written,
 * for every sum of every radius).
 *
 * Radii 1 to 7 run in the WebAssembly kernel of wasm/blur-kernel.ts. Here, for larger radii and
 * wherever WebAssembly cannot run, row after row: the running column sums move down one row,
 * then a running sum of them along the row gives each pixel. Pixels are read and written whole
 * through the 32-bit view, two channels in each column sum (bytes 0 and 2, then 1 and 3, 16 bits
 * apart); every channel gets the same arithmetic, so the platform's byte order does not matter.
 * Nothing is allocated a call: the scratch array is kept.
 */

/** Bytes 0 and 2 of a pixel (bytes 1 and 3 after a shift by 8). */
const PAIRED = 0x00ff00ff;

// Each column's running sums over 2r+1 rows: two words a column, two channels in each.
let columns = new Int32Array(0);

export function blurPixels(block: PixelBlock, radius: number): void {
  const { width, height } = block;
  const r = Math.min(64, Math.round(radius));
  if (!(r >= 1) || width === 0 || height === 0) return;
  if (blurInKernel(block, r)) return;
  const out = pixelView(block);
  // The picture before the blur: the blur writes over the block as it goes.
  const source = copyOfPixels(out);
  if (columns.length !== width * 2) columns = new Int32Array(width * 2);
  startColumns(source, width, height, r);
  for (let y = 0; y < height; y++) {
    if (y > 0) moveColumns(source, width, height, r, y);
    averageRow(out, width, r, y);
  }
  commitPixels(block, out);
}

/** The column sums for row 0: rows -r..r, the rows above the top repeating it. */
function startColumns(from: Int32Array, width: number, height: number, r: number): void {
  const sums = columns;
  sums.fill(0);
  for (let i = -r; i <= r; i++) {
    const row = Math.min(Math.max(i, 0), height - 1) * width;
    for (let x = 0; x < width; x++) {
      const pixel = from[row + x] as number;
      sums[x * 2] = ((sums[x * 2] as number) + (pixel & PAIRED)) | 0;
      sums[x * 2 + 1] = ((sums[x * 2 + 1] as number) + ((pixel >>> 8) & PAIRED)) | 0;
    }
  }
}

/** The column sums one row down, for row y: row y+r comes in, row y-r-1 goes out. */
function moveColumns(from: Int32Array, width: number, height: number, r: number, y: number): void {
  const sums = columns;
  const added = Math.min(y + r, height - 1) * width;
  const removed = Math.max(y - r - 1, 0) * width;
  for (let x = 0; x < width; x++) {
    const a = from[added + x] as number;
    const b = from[removed + x] as number;
    sums[x * 2] = ((sums[x * 2] as number) + (a & PAIRED) - (b & PAIRED)) | 0;
    sums[x * 2 + 1] =
      ((sums[x * 2 + 1] as number) + ((a >>> 8) & PAIRED) - ((b >>> 8) & PAIRED)) | 0;
  }
}

/** Row y: a running sum a channel, each byte by multiplying. */
function averageRow(out: Int32Array, width: number, r: number, y: number): void {
  const area = (2 * r + 1) ** 2;
  const centre = area / 2;
  const inverse = 1 / area;
  const last = width - 1;
  const sums = columns;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = -r; i <= r; i++) {
    const at = (i < 0 ? 0 : i > last ? last : i) * 2;
    const low = sums[at] as number;
    const high = sums[at + 1] as number;
    s0 += low & 0xffff;
    s1 += high & 0xffff;
    s2 += low >>> 16;
    s3 += high >>> 16;
  }
  const row = y * width;
  for (let x = 0; x < width; x++) {
    out[row + x] =
      ((s0 + centre) * inverse) |
      (((s1 + centre) * inverse) << 8) |
      (((s2 + centre) * inverse) << 16) |
      (((s3 + centre) * inverse) << 24);
    const ahead = x + r + 1;
    const behind = x - r;
    const a = (ahead > last ? last : ahead) * 2;
    const b = (behind < 0 ? 0 : behind) * 2;
    const aLow = sums[a] as number;
    const aHigh = sums[a + 1] as number;
    const bLow = sums[b] as number;
    const bHigh = sums[b + 1] as number;
    s0 += (aLow & 0xffff) - (bLow & 0xffff);
    s1 += (aHigh & 0xffff) - (bHigh & 0xffff);
    s2 += (aLow >>> 16) - (bLow >>> 16);
    s3 += (aHigh >>> 16) - (bHigh >>> 16);
  }
}
