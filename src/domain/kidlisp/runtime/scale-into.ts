import type { PixelBlock } from './types.js';

/**
 * Copies `source` over all of `target`, nearest pixel (each target pixel takes the source pixel
 * its center falls in): a `resolution` screen shown on the viewer's canvas.
 */
export function scaleInto(source: PixelBlock, target: PixelBlock): void {
  const { width, height, data } = target;
  if (source.width === 0 || source.height === 0) return;
  const columns = new Int32Array(width);
  for (let x = 0; x < width; x++)
    columns[x] = Math.min(source.width - 1, Math.floor(((x + 0.5) * source.width) / width)) * 4;
  for (let y = 0; y < height; y++) {
    const row = Math.min(source.height - 1, Math.floor(((y + 0.5) * source.height) / height));
    const from = row * source.width * 4;
    const to = y * width * 4;
    for (let x = 0; x < width; x++) {
      const s = from + (columns[x] as number);
      const d = to + x * 4;
      data[d] = source.data[s] as number;
      data[d + 1] = source.data[s + 1] as number;
      data[d + 2] = source.data[s + 2] as number;
      data[d + 3] = source.data[s + 3] as number;
    }
  }
}
