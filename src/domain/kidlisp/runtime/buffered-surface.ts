import type { Paint, PixelBlock, Surface } from './types.js';

export interface BufferedSurface extends Surface {
  /** Writes back pixels that transforms changed and drops the cached block. */
  flush(): void;
}

/**
 * Lets consecutive pixel transforms share one read and one write of the screen:
 * `(spin 1) (zoom 1.1) (blur 2)` reads the pixels once and writes them once. Any drawing call
 * first writes pending pixels back, and drawing makes the cached block stale.
 */
export function bufferedSurface(inner: Surface): BufferedSurface {
  let cached: PixelBlock | undefined;
  let dirty = false;

  const settle = (): void => {
    if (cached !== undefined && dirty) inner.putPixels(cached);
    cached = undefined;
    dirty = false;
  };

  return {
    width: inner.width,
    height: inner.height,
    clear(paint: Paint) {
      settle();
      inner.clear(paint);
    },
    point(x: number, y: number, paint: Paint) {
      settle();
      inner.point(x, y, paint);
    },
    fillRect(x: number, y: number, w: number, h: number, paint: Paint) {
      settle();
      inner.fillRect(x, y, w, h, paint);
    },
    line(x0, y0, x1, y1, thickness, paint) {
      settle();
      inner.line(x0, y0, x1, y1, thickness, paint);
    },
    ellipse(cx, cy, rx, ry, outline, paint) {
      settle();
      inner.ellipse(cx, cy, rx, ry, outline, paint);
    },
    polygon(points, outline, paint) {
      settle();
      inner.polygon(points, outline, paint);
    },
    text(text, x, y, size, paint) {
      settle();
      inner.text(text, x, y, size, paint);
    },
    getPixels() {
      cached ??= inner.getPixels();
      return cached;
    },
    putPixels(block) {
      cached = block;
      dirty = true;
    },
    clip(area) {
      inner.clip?.(area);
    },
    flush: settle,
  };
}
