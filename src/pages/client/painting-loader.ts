/**
 * `#code` paintings for the browser player: `GET <base>/<code>.png` (the painting's raw file),
 * decoded with createImageBitmap and a canvas's getImageData. Each code is fetched and decoded
 * once per page, whichever canvases stamp it.
 */
import type { PaintingLoader, PixelBlock } from '../../domain/kidlisp/runtime/index.js';

const decoded = new Map<string, Promise<PixelBlock | null>>();

async function fetchPainting(url: string): Promise<PixelBlock | null> {
  const response = await fetch(url, {
    headers: { accept: 'image/png' },
    credentials: 'same-origin',
  });
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/'))
    return null;
  const bitmap = await createImageBitmap(await response.blob());
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (context === null) return null;
    context.drawImage(bitmap, 0, 0);
    const { width, height, data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width, height, data };
  } finally {
    bitmap.close();
  }
}

/** Paintings from `<base>/<code>.png`; `base` is '' for this site's own raw files. */
export function paintingLoader(base: string): PaintingLoader {
  return (code) => {
    const url = `${base}/${encodeURIComponent(code)}.png`;
    let pending = decoded.get(url);
    if (pending === undefined) {
      pending = fetchPainting(url);
      decoded.set(url, pending);
    }
    return pending;
  };
}
