import { cssColor } from './paint.js';
import type { Paint, PixelBlock, Surface } from './types.js';

/**
 * The members of CanvasRenderingContext2D the adapter uses, written out so that this module needs
 * no DOM types: a browser canvas, an OffscreenCanvas and @napi-rs/canvas all fit.
 */
export interface Canvas2DLike<Image extends object = PixelBlock> {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalCompositeOperation: string;
  font: string;
  textBaseline: string;
  fillRect(x: number, y: number, width: number, height: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  ellipse(
    x: number,
    y: number,
    radiusX: number,
    radiusY: number,
    rotation: number,
    startAngle: number,
    endAngle: number,
  ): void;
  fill(): void;
  stroke(): void;
  fillText(text: string, x: number, y: number): void;
  createLinearGradient(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): { addColorStop(offset: number, color: string): void };
  /** Its ImageData must hold 8-bit RGBA (the default pixel format of every canvas named above). */
  getImageData(x: number, y: number, width: number, height: number): Image;
  putImageData(image: Image, x: number, y: number): void;
}

/**
 * Adapts a 2D canvas context to `Surface`. Shapes snap to whole pixels so that boxes and
 * straight lines come out crisp; diagonal lines and curves are antialiased by the canvas.
 */
export function canvasSurface<Image extends object>(
  ctx: Canvas2DLike<Image>,
  width: number,
  height: number,
): Surface {
  let erasing = false;

  /** Sets the style for `paint`; returns it so callers can hand it to fill or stroke. */
  const style = (paint: Paint): unknown => {
    if (paint.kind === 'erase') {
      if (!erasing) ctx.globalCompositeOperation = 'destination-out';
      erasing = true;
      return `rgba(0,0,0,${paint.alpha / 255})`;
    }
    if (erasing) ctx.globalCompositeOperation = 'source-over';
    erasing = false;
    if (paint.kind === 'solid') return cssColor(paint.color);
    const gradient = ctx.createLinearGradient(paint.x0, paint.y0, paint.x1, paint.y1);
    const last = Math.max(1, paint.stops.length - 1);
    paint.stops.forEach((stop, index) => {
      gradient.addColorStop(index / last, cssColor(stop));
    });
    return gradient;
  };

  const finishShape = (outline: number, paint: Paint): void => {
    if (outline > 0) {
      ctx.strokeStyle = style(paint);
      ctx.lineWidth = outline;
      ctx.stroke();
    } else {
      ctx.fillStyle = style(paint);
      ctx.fill();
    }
  };

  return {
    width,
    height,
    fillRect(x, y, w, h, paint) {
      const left = Math.round(x);
      const top = Math.round(y);
      ctx.fillStyle = style(paint);
      ctx.fillRect(left, top, Math.round(x + w) - left, Math.round(y + h) - top);
    },
    line(x0, y0, x1, y1, thickness, paint) {
      const ax = Math.floor(x0);
      const ay = Math.floor(y0);
      const bx = Math.floor(x1);
      const by = Math.floor(y1);
      const t = Math.max(1, Math.round(thickness));
      const offset = Math.floor((t - 1) / 2);
      if (ay === by || ax === bx) {
        // Straight lines as rectangles: exact pixels, both ends included.
        ctx.fillStyle = style(paint);
        ctx.fillRect(
          Math.min(ax, bx) - offset,
          Math.min(ay, by) - offset,
          Math.abs(bx - ax) + t,
          Math.abs(by - ay) + t,
        );
        return;
      }
      ctx.beginPath();
      ctx.moveTo(ax + 0.5, ay + 0.5);
      ctx.lineTo(bx + 0.5, by + 0.5);
      ctx.strokeStyle = style(paint);
      ctx.lineWidth = t;
      ctx.stroke();
    },
    ellipse(cx, cy, rx, ry, outline, paint) {
      if (rx <= 0 || ry <= 0) return;
      const inset = outline > 0 ? outline / 2 : 0;
      ctx.beginPath();
      ctx.ellipse(cx, cy, Math.max(0.5, rx - inset), Math.max(0.5, ry - inset), 0, 0, Math.PI * 2);
      finishShape(outline, paint);
    },
    polygon(points, outline, paint) {
      if (points.length < 6) return;
      ctx.beginPath();
      ctx.moveTo(points[0] ?? 0, points[1] ?? 0);
      for (let i = 2; i + 1 < points.length; i += 2) ctx.lineTo(points[i] ?? 0, points[i + 1] ?? 0);
      ctx.closePath();
      finishShape(outline, paint);
    },
    text(text, x, y, size, paint) {
      ctx.font = `${Math.round(size)}px monospace`;
      ctx.textBaseline = 'top';
      ctx.fillStyle = style(paint);
      ctx.fillText(text, x, y);
    },
    getPixels() {
      // The canvas's ImageData: width, height and 8-bit RGBA data, what PixelBlock describes.
      return ctx.getImageData(0, 0, width, height) as unknown as PixelBlock;
    },
    putPixels(block) {
      if (erasing) {
        ctx.globalCompositeOperation = 'source-over';
        erasing = false;
      }
      // The block is the same ImageData object getPixels returned, changed in place.
      ctx.putImageData(block as unknown as Image, 0, 0);
    },
  };
}
