import type {
  Paint,
  PixelBlock,
  RGBA,
  Surface,
} from '../../../../src/domain/kidlisp/runtime/index.js';
import { fadeColorAt } from '../../../../src/domain/kidlisp/runtime/index.js';

/**
 * A test double of a canvas: an RGBA buffer that rasterizes Surface calls without antialiasing
 * (a pixel is covered when its center is inside the shape) and records every call.
 */
export class PixelSurface implements Surface {
  readonly data: Uint8ClampedArray;
  readonly calls: { method: string; args: unknown[] }[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }

  pixel(x: number, y: number): RGBA {
    const i = (y * this.width + x) * 4;
    return [this.data[i] ?? 0, this.data[i + 1] ?? 0, this.data[i + 2] ?? 0, this.data[i + 3] ?? 0];
  }

  /** How many pixels have exactly this color. */
  count(color: RGBA): number {
    let n = 0;
    for (let i = 0; i < this.data.length; i += 4) {
      if (
        this.data[i] === color[0] &&
        this.data[i + 1] === color[1] &&
        this.data[i + 2] === color[2] &&
        this.data[i + 3] === color[3]
      )
        n++;
    }
    return n;
  }

  snapshot(): Uint8ClampedArray {
    return this.data.slice();
  }

  private plot(x: number, y: number, paint: Paint): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    const d = this.data;
    if (paint.kind === 'erase') {
      d[i + 3] = (d[i + 3] ?? 0) * (1 - paint.alpha / 255);
      return;
    }
    const color = paint.kind === 'solid' ? paint.color : fadeColorAt(paint, x + 0.5, y + 0.5);
    const a = color[3] / 255;
    const keep = 1 - a;
    const below = (d[i + 3] ?? 0) / 255;
    const outAlpha = a + below * keep;
    if (outAlpha === 0) return;
    for (let c = 0; c < 3; c++) {
      d[i + c] = ((color[c] ?? 0) * a + (d[i + c] ?? 0) * below * keep) / outAlpha;
    }
    d[i + 3] = outAlpha * 255;
  }

  fillRect(x: number, y: number, w: number, h: number, paint: Paint): void {
    this.calls.push({ method: 'fillRect', args: [x, y, w, h, paint] });
    const left = Math.max(0, Math.round(x));
    const top = Math.max(0, Math.round(y));
    const right = Math.min(this.width, Math.round(x + w));
    const bottom = Math.min(this.height, Math.round(y + h));
    for (let py = top; py < bottom; py++)
      for (let px = left; px < right; px++) this.plot(px, py, paint);
  }

  line(x0: number, y0: number, x1: number, y1: number, thickness: number, paint: Paint): void {
    this.calls.push({ method: 'line', args: [x0, y0, x1, y1, thickness, paint] });
    const t = Math.max(1, Math.round(thickness));
    const clipped = this.clipLine(x0, y0, x1, y1, t + 1);
    if (clipped === undefined) return;
    let x = Math.floor(clipped[0]);
    let y = Math.floor(clipped[1]);
    const tx = Math.floor(clipped[2]);
    const ty = Math.floor(clipped[3]);
    const dx = Math.abs(tx - x);
    const dy = -Math.abs(ty - y);
    const sx = x < tx ? 1 : -1;
    const sy = y < ty ? 1 : -1;
    let error = dx + dy;
    const offset = Math.floor((t - 1) / 2);
    // Each pixel is painted once (a translucent paint would darken twice), and a thick pen's
    // square is visited only where it is on the surface.
    const covered = new Uint8Array(this.width * this.height);
    for (;;) {
      const right = Math.min(this.width, x - offset + t);
      const bottom = Math.min(this.height, y - offset + t);
      for (let py = Math.max(0, y - offset); py < bottom; py++)
        for (let px = Math.max(0, x - offset); px < right; px++) covered[py * this.width + px] = 1;
      if (x === tx && y === ty) break;
      const e2 = 2 * error;
      if (e2 >= dy) {
        error += dy;
        x += sx;
      }
      if (e2 <= dx) {
        error += dx;
        y += sy;
      }
    }
    for (let i = 0; i < covered.length; i++)
      if (covered[i]) this.plot(i % this.width, Math.floor(i / this.width), paint);
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, outline: number, paint: Paint): void {
    this.calls.push({ method: 'ellipse', args: [cx, cy, rx, ry, outline, paint] });
    if (rx <= 0 || ry <= 0) return;
    const inside = (px: number, py: number, ax: number, ay: number) =>
      ax > 0 && ay > 0 && ((px - cx) / ax) ** 2 + ((py - cy) / ay) ** 2 <= 1;
    for (let py = this.clipY(cy - ry); py <= this.clipY(cy + ry); py++) {
      for (let px = this.clipX(cx - rx); px <= this.clipX(cx + rx); px++) {
        const mx = px + 0.5;
        const my = py + 0.5;
        if (!inside(mx, my, rx, ry)) continue;
        if (outline > 0 && inside(mx, my, rx - outline, ry - outline)) continue;
        this.plot(px, py, paint);
      }
    }
  }

  polygon(points: readonly number[], outline: number, paint: Paint): void {
    this.calls.push({ method: 'polygon', args: [[...points], outline, paint] });
    if (points.length < 6) return;
    if (outline > 0) {
      for (let i = 0; i < points.length; i += 2) {
        const j = (i + 2) % points.length;
        this.line(
          points[i] ?? 0,
          points[i + 1] ?? 0,
          points[j] ?? 0,
          points[j + 1] ?? 0,
          outline,
          paint,
        );
      }
      return;
    }
    const xs = points.filter((_, i) => i % 2 === 0);
    const ys = points.filter((_, i) => i % 2 === 1);
    for (let py = this.clipY(Math.min(...ys)); py <= this.clipY(Math.max(...ys)); py++) {
      for (let px = this.clipX(Math.min(...xs)); px <= this.clipX(Math.max(...xs)); px++) {
        if (this.contains(points, px + 0.5, py + 0.5)) this.plot(px, py, paint);
      }
    }
  }

  /**
   * The part of a line inside the screen grown by `margin` (parametric clipping), so that a line
   * running far off screen costs only its visible pixels; undefined when none is visible.
   */
  private clipLine(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    margin: number,
  ): [number, number, number, number] | undefined {
    let from = 0;
    let to = 1;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const edges: [number, number][] = [
      [-dx, x0 + margin],
      [dx, this.width + margin - x0],
      [-dy, y0 + margin],
      [dy, this.height + margin - y0],
    ];
    for (const [p, q] of edges) {
      if (p === 0) {
        if (q < 0) return undefined;
        continue;
      }
      const r = q / p;
      if (p < 0) from = Math.max(from, r);
      else to = Math.min(to, r);
      if (from > to) return undefined;
    }
    return [x0 + from * dx, y0 + from * dy, x0 + to * dx, y0 + to * dy];
  }

  /** A coordinate limited to one pixel beyond the screen, so huge shapes cost only the screen. */
  private clipX(x: number): number {
    return Math.max(-1, Math.min(this.width, Math.floor(x)));
  }

  private clipY(y: number): number {
    return Math.max(-1, Math.min(this.height, Math.floor(y)));
  }

  private contains(points: readonly number[], x: number, y: number): boolean {
    let inside = false;
    const n = points.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = points[i * 2] ?? 0;
      const yi = points[i * 2 + 1] ?? 0;
      const xj = points[j * 2] ?? 0;
      const yj = points[j * 2 + 1] ?? 0;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /** Each visible character becomes a solid cell 0.6 x 1 of the size (no font in a test double). */
  text(text: string, x: number, y: number, size: number, paint: Paint): void {
    this.calls.push({ method: 'text', args: [text, x, y, size, paint] });
    const cell = size * 0.6;
    [...text].forEach((char, index) => {
      if (char.trim() === '') return;
      const left = Math.round(x + index * cell);
      const top = Math.round(y);
      for (let py = this.clipY(top); py < this.clipY(top + Math.round(size)); py++)
        for (let px = this.clipX(left); px < this.clipX(left + Math.round(cell)); px++)
          this.plot(px, py, paint);
    });
  }

  getPixels(): PixelBlock {
    this.calls.push({ method: 'getPixels', args: [] });
    return { width: this.width, height: this.height, data: this.data.slice() };
  }

  putPixels(block: PixelBlock): void {
    this.calls.push({ method: 'putPixels', args: [] });
    this.data.set(block.data);
  }
}

export const NAVY: RGBA = [0, 0, 128, 255];
export const RED: RGBA = [255, 0, 0, 255];
export const BLACK: RGBA = [0, 0, 0, 255];
export const WHITE: RGBA = [255, 255, 255, 255];
