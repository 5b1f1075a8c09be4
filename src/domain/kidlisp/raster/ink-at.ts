import { fadeColorAt } from '../runtime/paint.js';
import type { Paint } from '../runtime/types.js';
import type { Ink } from './pixels.js';

/** The ink a paint puts at (x, y), written into `into` (one object reused, no allocation). */
export function inkAt(paint: Paint, x: number, y: number, into: Ink): Ink {
  if (paint.kind === 'erase') {
    into.a = paint.alpha;
    into.erase = true;
    return into;
  }
  const [r, g, b, a] = paint.kind === 'solid' ? paint.color : fadeColorAt(paint, x, y);
  into.r = r;
  into.g = g;
  into.b = b;
  into.a = a;
  into.erase = false;
  return into;
}
