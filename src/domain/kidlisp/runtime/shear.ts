import { copyOfPixels, pixelView, wrapShift } from './pixel-scratch.js';
import type { PixelBlock } from './types.js';

/**
 * `shear sx sy`, as the reference's graph.mjs `shear` (a KidPix-style lean): first every row
 * moves right by round(sx * (y - height / 2)) pixels, then, on that result, every column moves
 * down by round(sy * (x - width / 2)) pixels; what leaves one edge comes back at the other.
 * A factor that is not a finite number counts as 0.
 */
export function shearPixels(block: PixelBlock, sx: number, sy: number): void {
  const { width, height } = block;
  const across = Number.isFinite(sx) ? sx : 0;
  const down = Number.isFinite(sy) ? sy : 0;
  if (width === 0 || height === 0 || (across === 0 && down === 0)) return;
  const { view, commit } = pixelView(block);
  if (across !== 0) shearRows(view, width, height, across);
  if (down !== 0) shearColumns(view, width, height, down);
  commit();
}

function shearRows(view: Uint32Array, width: number, height: number, factor: number): void {
  const source = copyOfPixels(view);
  for (let y = 0; y < height; y++) {
    const shift = wrapShift(Math.round(factor * (y - height / 2)), width);
    if (shift === 0) continue;
    const row = y * width;
    // Pixel x comes from x - shift: the row's tail goes to its front, the rest after it.
    view.set(source.subarray(row + width - shift, row + width), row);
    view.set(source.subarray(row, row + width - shift), row + shift);
  }
}

// Each column's downward shift, kept between calls.
let columnShifts = new Int32Array(0);

function shearColumns(view: Uint32Array, width: number, height: number, factor: number): void {
  if (columnShifts.length !== width) columnShifts = new Int32Array(width);
  let moves = false;
  for (let x = 0; x < width; x++) {
    const shift = wrapShift(Math.round(factor * (x - width / 2)), height);
    columnShifts[x] = shift;
    if (shift !== 0) moves = true;
  }
  if (!moves) return;
  const source = copyOfPixels(view);
  // Row by row, so reads and writes stay close together: pixel (x, y) comes from (x, y - shift).
  for (let y = 0; y < height; y++) {
    const to = y * width;
    for (let x = 0; x < width; x++) {
      let from = y - (columnShifts[x] as number);
      if (from < 0) from += height;
      view[to + x] = source[from * width + x] as number;
    }
  }
}
