import type { PixelBlock } from './types.js';

/**
 * The 32-bit view (one element a pixel) that whole-screen transforms work on (`pixels.ts`,
 * `box-blur.ts`). The view of the last block is kept, so a frame's transforms on the same
 * screen allocate nothing; a block whose bytes are misaligned gets a copy, which
 * `commitPixels` writes back.
 */
let lastData: PixelBlock['data'] | undefined;
let lastView: Int32Array = new Int32Array(0);

export function pixelView(block: PixelBlock): Int32Array {
  const { data } = block;
  if (data.byteOffset % 4 !== 0) return new Int32Array(new Uint8ClampedArray(data).buffer);
  if (data !== lastData) {
    lastData = data;
    lastView = new Int32Array(data.buffer, data.byteOffset, data.length >> 2);
  }
  return lastView;
}

/** Writes a copied view back into its block (nothing to do for a view of the block itself). */
export function commitPixels(block: PixelBlock, view: Int32Array): void {
  if (view.buffer !== block.data.buffer) block.data.set(new Uint8ClampedArray(view.buffer));
}

// The screen as it was before a transform: one scratch array shared by every transform, kept
// between calls (no 256 KB allocation a frame, and one array less to keep in the cache).
let before: Int32Array = new Int32Array(0);

/** A copy of `view` in the shared scratch array: transforms read it while they write `view`. */
export function copyOfPixels(view: Int32Array): Int32Array {
  if (before.length !== view.length) before = new Int32Array(view.length);
  before.set(view);
  return before;
}
