/**
 * Decodes the PNG of a `#code` painting into RGBA pixels for the runtime, once per stored file:
 * decoded paintings are kept in an LRU bounded by their bytes. Decoding uses @napi-rs/canvas
 * (Skia's PNG decoder), already a dependency for the placeholder picture and well kept, rather
 * than adding a second decoder.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { LRUCache } from 'lru-cache';
import type { PixelBlock } from '../../domain/kidlisp/runtime/index.js';
import type { PaintingFile } from '../../operations/kidlisp/frame-renderer.js';

/** Paintings larger than this many pixels are not drawn (a 2048 x 2048 picture is 16 MB). */
const MAX_PIXELS = 2048 * 2048;
/** Decoded bytes kept at most. */
const CACHE_BYTES = 64 * 1024 * 1024;

async function decode(png: Buffer): Promise<PixelBlock | null> {
  const image = await loadImage(png);
  const { width, height } = image;
  if (width < 1 || height < 1 || width * height > MAX_PIXELS) return null;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, width, height);
  return { width, height, data: new Uint8ClampedArray(data) };
}

export type PaintingDecoder = (
  files: readonly PaintingFile[],
) => Promise<Record<string, PixelBlock>>;

/** The pixels of each file that decodes, by code; one that cannot be read or decoded is left out. */
export function createPaintingDecoder(): PaintingDecoder {
  const decoded = new LRUCache<string, PixelBlock>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (block) => Math.max(1, block.data.length),
  });
  const pixelsOf = async (file: PaintingFile): Promise<PixelBlock | null> => {
    const cached = decoded.get(file.key);
    if (cached !== undefined) return cached;
    const png = await file.read().catch(() => null);
    const block = png === null ? null : await decode(png).catch(() => null);
    if (block !== null && block.data.length <= CACHE_BYTES) decoded.set(file.key, block);
    return block;
  };
  return async (files) => {
    const paintings: Record<string, PixelBlock> = {};
    const blocks = await Promise.all(files.map(pixelsOf));
    files.forEach((file, index) => {
      const block = blocks[index];
      if (block) paintings[file.code] = block;
    });
    return paintings;
  };
}
