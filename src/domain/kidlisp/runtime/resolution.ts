import { rasterSurface } from '../raster/raster-surface.js';
import { bufferedSurface } from './buffered-surface.js';
import type { Interpreter } from './interpreter.js';
import { scaleInto } from './scale-into.js';
import type { Value } from './value.js';

/** The largest side a program's screen may have (a 1024 x 1024 screen is 4 MB of pixels). */
const LARGEST_SIDE = 1024;
const FRACTIONS: Readonly<Record<string, number>> = { half: 2, third: 3, fourth: 4 };

/** The fractions already applied since the last explicit size, per program (applied once each). */
const appliedFractions = new WeakMap<Interpreter, Set<string>>();

const side = (value: number): number =>
  Math.max(1, Math.min(LARGEST_SIDE, Number.isFinite(value) ? Math.floor(value) : 1));

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
    resize(rt, side(rt.screen.width / divisor), side(rt.screen.height / divisor));
    return undefined;
  }
  applied.clear();
  if (values.length === 0) {
    resize(rt, viewer.width, viewer.height);
    return undefined;
  }
  const width = side(rt.toNumber(first));
  resize(rt, width, values.length > 1 ? side(rt.toNumber(values[1])) : width);
  return undefined;
}
