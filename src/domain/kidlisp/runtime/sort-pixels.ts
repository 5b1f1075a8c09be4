import { copyOfPixels, pixelView } from './pixel-scratch.js';
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
 * sums); such runs are sorted again by the luminance itself.
 */

const BITS = 9;
const BUCKETS = 1 << BITS;

let keys = new Uint32Array(0);
let byLow = new Uint32Array(0);
let sorted = new Uint32Array(0);
const counts = new Uint32Array(BUCKETS);

export function sortPixels(block: PixelBlock): void {
  const { view, commit } = pixelView(block);
  const n = view.length;
  if (n < 2) return;
  if (keys.length !== n) {
    keys = new Uint32Array(n);
    byLow = new Uint32Array(n);
    sorted = new Uint32Array(n);
  }
  const source = copyOfPixels(view);
  const bytes = new Uint8Array(source.buffer, 0, n * 4);
  for (let i = 0, b = 0; i < n; i++, b += 4) {
    keys[i] =
      299 * (bytes[b] as number) + 587 * (bytes[b + 1] as number) + 114 * (bytes[b + 2] as number);
  }
  countingPass(keys, null, byLow, 0);
  countingPass(keys, byLow, sorted, BITS);
  sortTies(sorted, keys, bytes);
  for (let j = 0; j < n; j++) view[j] = source[sorted[j] as number] as number;
  commit();
}

/** A stable counting sort of pixel indices (`from`, or 0..n-1) by 9 bits of their keys. */
function countingPass(
  keyOf: Uint32Array,
  from: Uint32Array | null,
  to: Uint32Array,
  shift: number,
): void {
  const n = keyOf.length;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const bucket = ((keyOf[i] as number) >>> shift) & (BUCKETS - 1);
    counts[bucket] = (counts[bucket] as number) + 1;
  }
  let start = 0;
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    const count = counts[bucket] as number;
    counts[bucket] = start;
    start += count;
  }
  for (let j = 0; j < n; j++) {
    const index = from === null ? j : (from[j] as number);
    const bucket = ((keyOf[index] as number) >>> shift) & (BUCKETS - 1);
    const at = counts[bucket] as number;
    to[at] = index;
    counts[bucket] = at + 1;
  }
}

/** The reference's luminance, with its rounding (left to right, in doubles). */
function luminance(bytes: Uint8Array, index: number): number {
  const b = index * 4;
  return (
    0.299 * (bytes[b] as number) +
    0.587 * (bytes[b + 1] as number) +
    0.114 * (bytes[b + 2] as number)
  );
}

/** Runs of equal keys whose luminances are not all equal, sorted (stably) by the luminance. */
function sortTies(order: Uint32Array, keyOf: Uint32Array, bytes: Uint8Array): void {
  const n = order.length;
  let start = 0;
  while (start < n) {
    const key = keyOf[order[start] as number];
    let end = start + 1;
    while (end < n && keyOf[order[end] as number] === key) end++;
    if (end - start > 1) {
      const first = luminance(bytes, order[start] as number);
      let mixed = false;
      for (let j = start + 1; j < end && !mixed; j++) {
        mixed = luminance(bytes, order[j] as number) !== first;
      }
      if (mixed) {
        const run = Array.from(order.subarray(start, end));
        run.sort((a, b) => luminance(bytes, a) - luminance(bytes, b) || a - b);
        order.set(run, start);
      }
    }
    start = end;
  }
}
