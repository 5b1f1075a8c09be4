import { rasterSurface } from '../raster/raster-surface.js';
import { bufferedSurface } from './buffered-surface.js';
import type { Interpreter } from './interpreter.js';
import { scaleInto } from './scale-into.js';
import type { Value } from './value.js';

const FRACTIONS: Readonly<Record<string, number>> = { half: 2, third: 3, fourth: 4 };

/** The fractions already applied since the last explicit size, per program (applied once each). */
const appliedFractions = new WeakMap<Interpreter, Set<string>>();

/** A side of whole pixels, 1 up to the viewer's (more pixels than the canvas could not be seen). */
const side = (value: number, largest: number): number =>
  Math.max(1, Math.min(largest, Number.isFinite(value) ? Math.floor(value) : 1));

/**
 * Makes the program's screen `width` x `height`, keeping its picture (scaled, nearest pixel).
 * The viewer's own size needs no screen of its own; any other size gets one, shown on the
 * viewer's canvas scaled to fill it at the end of each frame (draw-view.ts).
 */
function resize(rt: Interpreter, width: number, height: number): void {
  const { view } = rt;
  const viewer = view.viewer;
  const current = rt.screen;
  if (viewer === undefined || (width === current.width && height === current.height)) return;
  rt.chargeSteps(1 + Math.ceil((width * height) / 64));
  const picture = current.getPixels();
  const next =
    width === viewer.width && height === viewer.height
      ? viewer
      : bufferedSurface(rasterSurface(width, height));
  const target = next.getPixels();
  scaleInto(picture, target);
  next.putPixels(target);
  view.screen = next === viewer ? undefined : next;
  rt.screen.clip?.(view.mask);
}

/**
 * `(resolution w [h])`: the program's screen becomes w x h pixels (h is w when left out), and
 * `width`/`height` say so; `(resolution)` goes back to the viewer's size. `(resolution half)`,
 * `third`, `fourth` divide the current size, once until an explicit size is set again, as the
 * reference keeps them from shrinking the screen every frame.
 */
export function resolution(rt: Interpreter, values: Value[]): Value {
  const viewer = rt.view.viewer;
  if (viewer === undefined) return undefined;
  let applied = appliedFractions.get(rt);
  if (applied === undefined) {
    applied = new Set();
    appliedFractions.set(rt, applied);
  }
  const [first] = values;
  const divisor = typeof first === 'string' ? FRACTIONS[first] : undefined;
  if (values.length === 1 && typeof first === 'string' && divisor !== undefined) {
    if (applied.has(first)) return undefined;
    applied.add(first);
    resize(
      rt,
      side(rt.screen.width / divisor, viewer.width),
      side(rt.screen.height / divisor, viewer.height),
    );
    return undefined;
  }
  applied.clear();
  if (values.length === 0) {
    resize(rt, viewer.width, viewer.height);
    return undefined;
  }
  const width = rt.toNumber(first);
  const height = values.length > 1 ? rt.toNumber(values[1]) : width;
  resize(rt, side(width, viewer.width), side(height, viewer.height));
  return undefined;
}
