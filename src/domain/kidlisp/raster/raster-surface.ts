import type { Paint, PixelBlock, Surface } from '../runtime/types.js';
import { drawText } from './font.js';
import {
  boundedLine,
  circleOutline,
  ellipsePoints,
  fillPolygon,
  fillTriangle,
  MAX_MIDPOINT_RADIUS,
  type Visit,
} from './geometry.js';
import { inkAt as paintInk } from './ink-at.js';
import {
  blendPixel,
  blendSpan,
  type Ink,
  lineBlendPixel,
  type Pixels,
  replacePixel,
} from './pixels.js';

/** A surface that also hands out its pixels: what the renderer, thumbnails and player read. */
export interface RasterSurface extends Surface {
  readonly pixels: Uint8ClampedArray;
}

type PixelRule = (px: Pixels, i: number, ink: Ink) => void;

/** Repeats the pixel at `start` over `length` bytes, copying what is done so far each time. */
function fillByDoubling(pixels: Uint8ClampedArray, start: number, length: number): void {
  for (let filled = 4; filled < length; filled *= 2) {
    pixels.copyWithin(start + filled, start, start + Math.min(filled, length - filled));
  }
}

const signedCeil = (n: number): number => (n < 0 ? -Math.ceil(-n) : Math.ceil(n));

/**
 * The runtime's own pixels: an RGBA buffer drawn by a software rasterizer that follows the
 * reference's rules (graph.mjs): boxes are rows of horizontal spans, sloped lines are Bresenham
 * steps, circles are midpoint circles when outlined and 18-cornered polygons when filled, and
 * every pixel is clipped to the screen and blended as `pixels.ts` describes.
 */
export function rasterSurface(width: number, height: number): RasterSurface {
  const pixels = new Uint8ClampedArray(width * height * 4);
  const block: PixelBlock = { width, height, data: pixels };
  const bounds = { width, height };
  const solid: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };
  // The clip `mask` sets (../runtime/draw-view.ts): columns left..right-1, rows top..bottom-1.
  let left = 0;
  let top = 0;
  let right = width;
  let bottom = height;

  /** The ink at (x, y) for a paint: one object reused, filled for fades per pixel. */
  const inkAt = (paint: Paint, x: number, y: number): Ink => paintInk(paint, x, y, solid);

  const plotter =
    (paint: Paint, rule: PixelRule = blendPixel): Visit =>
    (x, y) => {
      const px = Math.floor(x);
      const py = Math.floor(y);
      if (px < left || px >= right || py < top || py >= bottom) return;
      rule(pixels, (px + py * width) * 4, inkAt(paint, px, py));
    };

  /** A horizontal span as the reference's `lineh` draws it (its early exits included). */
  const span = (ax: number, bx: number, ay: number, paint: Paint): void => {
    let x0 = Math.floor(ax);
    let x1 = Math.floor(bx);
    const y = Math.floor(ay);
    if (y < 0 || y >= height || x0 >= width || x1 < 0) return;
    if (y < top || y >= bottom || x0 >= right || x1 < left || right <= left) return;
    x0 = Math.min(Math.max(x0, left), right - 1);
    x1 = Math.min(Math.max(x1, left), right - 1);
    const from = Math.min(x0, x1);
    const to = Math.max(x0, x1);
    if (paint.kind === 'fade') {
      for (let x = from; x <= to; x++) blendPixel(pixels, (x + y * width) * 4, inkAt(paint, x, y));
      return;
    }
    const ink = inkAt(paint, from, y);
    if (ink.a === 255 && !ink.erase) {
      const first = (from + y * width) * 4;
      replacePixel(pixels, first, ink);
      fillByDoubling(pixels, first, (to - from + 1) * 4);
      return;
    }
    blendSpan(pixels, (from + y * width) * 4, to - from + 1, ink);
  };

  const thinLine = (x0: number, y0: number, x1: number, y1: number, paint: Paint): void => {
    if (y0 === y1) span(x0, x1, y0, paint);
    else boundedLine(x0, y0, x1, y1, bounds, plotter(paint, lineBlendPixel));
  };

  /** A line `thickness` wide: the quad around it, filled (this runtime's choice). */
  const thickLine = (x0: number, y0: number, x1: number, y1: number, t: number, p: Paint) => {
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    const nx = (-(y1 - y0) / length) * (t / 2);
    const ny = ((x1 - x0) / length) * (t / 2);
    fillPolygon(
      [x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny],
      bounds,
      plotter(p),
    );
  };

  const outlinePolygon = (points: readonly number[], outline: number, paint: Paint): void => {
    const count = Math.floor(points.length / 2);
    for (let i = 0; i < count; i++) {
      const j = (i + 1) % count;
      const [ax, ay, bx, by] = [points[i * 2], points[i * 2 + 1], points[j * 2], points[j * 2 + 1]];
      if (outline > 1) thickLine(ax ?? 0, ay ?? 0, bx ?? 0, by ?? 0, outline, paint);
      else thinLine(ax ?? 0, ay ?? 0, bx ?? 0, by ?? 0, paint);
    }
  };

  return {
    width,
    height,
    pixels,
    clear(paint) {
      if (left > 0 || top > 0 || right < width || bottom < height) {
        // A masked wipe replaces only the mask's pixels, as the reference's `clear` does.
        for (let y = top; y < bottom; y++)
          for (let x = left; x < right; x++) {
            const ink = inkAt(paint, x, y);
            replacePixel(
              pixels,
              (x + y * width) * 4,
              ink.erase ? { ...ink, r: 0, g: 0, b: 0 } : ink,
            );
          }
        return;
      }
      if (paint.kind === 'fade') {
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++)
            replacePixel(pixels, (x + y * width) * 4, inkAt(paint, x, y));
        return;
      }
      // One color: the first pixel, then copies doubling in length.
      const ink = inkAt(paint, 0, 0);
      if (pixels.length === 0) return;
      replacePixel(pixels, 0, ink.erase ? { ...ink, r: 0, g: 0, b: 0 } : ink);
      fillByDoubling(pixels, 0, pixels.length);
    },
    fillRect(x, y, w, h, paint) {
      let left = Math.floor(x);
      let top = Math.floor(y);
      let cols = signedCeil(w);
      let rows = signedCeil(h);
      if (cols === 0 || rows === 0 || Number.isNaN(cols) || Number.isNaN(rows)) return;
      if (cols < 0) [left, cols] = [left + cols, -cols];
      if (rows < 0) [top, rows] = [top + rows, -rows];
      // The rows on the screen only, counted from 0: from a coordinate past 2^53, row++ is lost.
      const end = Math.min(height, top + rows);
      for (let row = Math.max(0, top); row < end; row++) span(left, left + cols - 1, row, paint);
    },
    line(x0, y0, x1, y1, thickness, paint) {
      if (thickness > 1) thickLine(x0, y0, x1, y1, thickness, paint);
      else thinLine(x0, y0, x1, y1, paint);
    },
    ellipse(cx, cy, rx, ry, outline, paint) {
      if (outline === 1 && rx === ry && rx <= MAX_MIDPOINT_RADIUS)
        circleOutline(cx, cy, rx, bounds, plotter(paint));
      else if (outline > 0) outlinePolygon(ellipsePoints(cx, cy, rx, ry), outline, paint);
      else fillPolygon(ellipsePoints(cx, cy, rx, ry), bounds, plotter(paint));
    },
    polygon(points, outline, paint) {
      if (outline > 0) outlinePolygon(points, outline, paint);
      else if (points.length === 6) fillTriangle(points, bounds, plotter(paint));
      else fillPolygon(points, bounds, plotter(paint));
    },
    point(x, y, paint) {
      plotter(paint)(x, y);
    },
    text(text, x, y, size, paint) {
      drawText(text, x, y, size, bounds, plotter(paint));
    },
    clip(area) {
      left = area === undefined ? 0 : Math.max(0, Math.min(width, area.x));
      top = area === undefined ? 0 : Math.max(0, Math.min(height, area.y));
      right = area === undefined ? width : Math.max(left, Math.min(width, area.x + area.width));
      bottom = area === undefined ? height : Math.max(top, Math.min(height, area.y + area.height));
    },
    getPixels: () => block,
    putPixels(next) {
      if (next.data !== pixels) pixels.set(next.data);
    },
  };
}
