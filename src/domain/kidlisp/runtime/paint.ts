import type { Paint, RGBA } from './types.js';

/**
 * End points of a linear gradient across a `width` x `height` screen at `angle` degrees,
 * counter-clockwise on screen as the reference turns a fade (0 left to right, 90 bottom to top),
 * through the screen's center, long enough that both corners on the gradient's axis get the end
 * colors.
 */
export function fadeLine(
  angle: number,
  width: number,
  height: number,
): { x0: number; y0: number; x1: number; y1: number } {
  const radians = (angle * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = -Math.sin(radians);
  const half = Math.abs((width / 2) * dx) + Math.abs((height / 2) * dy);
  const cx = width / 2;
  const cy = height / 2;
  return { x0: cx - dx * half, y0: cy - dy * half, x1: cx + dx * half, y1: cy + dy * half };
}

/** The color a `fade` paint has at (x, y), as a canvas linear gradient with even stops. */
export function fadeColorAt(paint: Extract<Paint, { kind: 'fade' }>, x: number, y: number): RGBA {
  const { stops } = paint;
  const first = stops[0] ?? [0, 0, 0, 0];
  if (stops.length < 2) return first;
  const vx = paint.x1 - paint.x0;
  const vy = paint.y1 - paint.y0;
  const lengthSquared = vx * vx + vy * vy;
  let t = lengthSquared === 0 ? 0 : ((x - paint.x0) * vx + (y - paint.y0) * vy) / lengthSquared;
  t = Math.min(1, Math.max(0, t));
  const scaled = t * (stops.length - 1);
  const index = Math.min(stops.length - 2, Math.floor(scaled));
  const local = scaled - index;
  const a = stops[index] ?? first;
  const b = stops[index + 1] ?? a;
  return [
    Math.round(a[0] + (b[0] - a[0]) * local),
    Math.round(a[1] + (b[1] - a[1]) * local),
    Math.round(a[2] + (b[2] - a[2]) * local),
    Math.round(a[3] + (b[3] - a[3]) * local),
  ];
}
