import type { PixelBlock } from './types.js';

/**
 * What the screen effects (shear, flip, sharpen, suck, sort, noise) share: a 32-bit view of the
 * screen, one element a pixel, and scratch arrays kept between calls, so an effect run every
 * frame allocates nothing.
 */

/** A 32-bit view of the block, or a copy (written back by `commit`) when the bytes are misaligned. */
export function pixelView(block: PixelBlock): { view: Uint32Array; commit: () => void } {
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

let screenCopy = new Uint32Array(0);

/** The pixels of `view` as they are now, in a scratch array the next call overwrites. */
export function copyOfPixels(view: Uint32Array): Uint32Array {
  if (screenCopy.length !== view.length) screenCopy = new Uint32Array(view.length);
  screenCopy.set(view);
  return screenCopy;
}

/** The bytes of a block as they are now (a view of `copyOfPixels`'s scratch array). */
export function copyOfBytes(block: PixelBlock): Uint8Array {
  const copy = copyOfPixels(pixelView(block).view);
  return new Uint8Array(copy.buffer, 0, block.data.length);
}

/** `value` mod `size`, in 0..size-1; anything not finite (an overflowed shift) is 0. */
export function wrapShift(value: number, size: number): number {
  if (!Number.isFinite(value)) return 0;
  const r = value % size;
  return r < 0 ? r + size : r;
}
