import { pixelView } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * `sort`, as the reference's graph.mjs `sort`: every pixel (alpha included) ordered by its
 * luminance `0.299 r + 0.587 g + 0.114 b`, darkest first, written back row by row from the top
 * left; pixels of equal luminance keep their order (the reference's sort is stable).
 *
 * Done without comparing: 1000 times the luminance is the integer 299 r + 587 g + 114 b (below
 * 2^18), and two pixels whose integers differ have luminances at least 0.001 apart, far beyond
 * rounding, so a stable radix sort on it (two passes of 9 bits) gives the reference's order.
 * Only where the integers tie can the rounded luminances still differ (different colors, equal
 * sums); such runs are sorted again by the luminance itself. The pixels travel with their keys
 * through the passes, so nothing is looked up out of order.
 */

const BITS = 9;
const BUCKETS = 1 << BITS;
const LOW = BUCKETS - 1;

// Scratch kept between calls: keys and pixels in the order of the first pass, then final keys.
let keysByLow = new Uint32Array(0);
let pixelsByLow = new Uint32Array(0);
let keys = new Uint32Array(0);
// Where each bucket of the low and of the high 9 bits starts, counted in one pass.
const lowStarts = new Uint32Array(BUCKETS);
const highStarts = new Uint32Array(BUCKETS);

export function sortPixels(block: PixelBlock): void {
  const { view, commit } = pixelView(block);
  const n = view.length;
  if (n < 2) return;
  if (keys.length !== n) {
    keysByLow = new Uint32Array(n);
    pixelsByLow = new Uint32Array(n);
    keys = new Uint32Array(n);
  }
  const bytes = new Uint8Array(view.buffer, view.byteOffset, n * 4);
  lowStarts.fill(0);
  highStarts.fill(0);
  for (let i = 0, b = 0; i < n; i++, b += 4) {
    const key =
      299 * (bytes[b] as number) + 587 * (bytes[b + 1] as number) + 114 * (bytes[b + 2] as number);
    keys[i] = key;
    lowStarts[key & LOW] = (lowStarts[key & LOW] as number) + 1;
    highStarts[key >>> BITS] = (highStarts[key >>> BITS] as number) + 1;
  }
  toStarts(lowStarts);
  toStarts(highStarts);
  // First pass by the low 9 bits, into the scratch arrays; second by the high bits, back.
  for (let i = 0; i < n; i++) {
    const key = keys[i] as number;
    const at = lowStarts[key & LOW] as number;
    lowStarts[key & LOW] = at + 1;
    keysByLow[at] = key;
    pixelsByLow[at] = view[i] as number;
  }
  for (let j = 0; j < n; j++) {
    const key = keysByLow[j] as number;
    const at = highStarts[key >>> BITS] as number;
    highStarts[key >>> BITS] = at + 1;
    keys[at] = key;
    view[at] = pixelsByLow[j] as number;
  }
  sortTies(view, keys, bytes);
  commit();
}

/** Bucket counts become where each bucket starts. */
function toStarts(counts: Uint32Array): void {
  let start = 0;
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    const count = counts[bucket] as number;
    counts[bucket] = start;
    start += count;
  }
}

/** The reference's luminance of pixel `i`, with its rounding (left to right, in doubles). */
function luminance(bytes: Uint8Array, i: number): number {
  const b = i * 4;
  return (
    0.299 * (bytes[b] as number) +
    0.587 * (bytes[b + 1] as number) +
    0.114 * (bytes[b + 2] as number)
  );
}

/**
 * Runs of equal keys whose luminances are not all equal, put in order of luminance by an
 * insertion sort (stable, and quick on the short runs that ties make).
 */
function sortTies(view: Uint32Array, keyOf: Uint32Array, bytes: Uint8Array): void {
  const n = view.length;
  let start = 0;
  while (start < n) {
    const key = keyOf[start];
    let end = start + 1;
    let mixed = false;
    for (; end < n && keyOf[end] === key; end++) {
      if (!mixed && view[end] !== view[start])
        mixed = luminance(bytes, end) !== luminance(bytes, start);
    }
    if (mixed) {
      for (let j = start + 1; j < end; j++) {
        const pixel = view[j] as number;
        const value = luminance(bytes, j);
        let k = j;
        for (; k > start && luminance(bytes, k - 1) > value; k--) view[k] = view[k - 1] as number;
        view[k] = pixel;
      }
    }
    start = end;
  }
}
