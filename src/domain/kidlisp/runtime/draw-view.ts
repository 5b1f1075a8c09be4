import type { BufferedSurface } from './buffered-surface.js';
import { scaleInto } from './scale-into.js';
import type { Area, Paint, PointerInput } from './types.js';

/**
 * `pan` and `mask` as the reference's graphics library keeps them (graph.mjs `panTranslation` and
 * `activeMask`): state that lasts until `unpan` / `unmask`, across frames.
 * - `pan` moves every shape, line, point and text by whole pixels; `wipe`, `flood` and the pixel
 *   transforms are not moved.
 * - `mask` clips every drawing call to its rectangle (as the reference's `plot`, which does not
 *   pan the rectangle) and is where the pixel transforms work (the rectangle moved by the pan,
 *   as the reference's scroll/spin/blur/contrast read it).
 */
export class DrawView {
  panX = 0;
  panY = 0;
  /** The mask's pixels: columns `x .. x + width - 1`, rows `y .. y + height - 1`, on screen. */
  mask: Area | undefined;
  /** The program's own screen after `resolution`; undefined: it draws on the viewer's. */
  screen: BufferedSurface | undefined;
  /** The viewer's screen, which a `resolution` screen is shown on. */
  viewer: BufferedSurface | undefined;

  /** A pointer event in the program's pixels: scaled from the canvas's after `resolution`. */
  inProgramPixels(event: PointerInput): PointerInput {
    const { screen, viewer } = this;
    if (screen === undefined || viewer === undefined) return event;
    const sx = screen.width / viewer.width;
    const sy = screen.height / viewer.height;
    return {
      ...event,
      x: Math.floor(event.x * sx),
      y: Math.floor(event.y * sy),
      ...(event.dx === undefined ? {} : { dx: event.dx * sx }),
      ...(event.dy === undefined ? {} : { dy: event.dy * sy }),
    };
  }

  /** Where pixel transforms work: the whole screen, or the mask moved by the pan, on screen. */
  transformArea(width: number, height: number): Area {
    if (this.mask === undefined) return { x: 0, y: 0, width, height };
    return clampArea(this.mask.x + this.panX, this.mask.y + this.panY, this.mask, width, height);
  }
}

/** The part of a rectangle that lies on a `width` x `height` screen (possibly empty). */
export function clampArea(
  x: number,
  y: number,
  size: { width: number; height: number },
  width: number,
  height: number,
): Area {
  const left = Math.max(0, Math.min(width, x));
  const top = Math.max(0, Math.min(height, y));
  const right = Math.max(left, Math.min(width, x + size.width));
  const bottom = Math.max(top, Math.min(height, y + size.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The pixels `(mask x y w h)` leaves drawable: the reference's `plot` keeps a pixel when
 * `x <= px < x + w` and `y <= py < y + h`, so fractional edges round up and a zero or negative
 * size keeps nothing.
 */
export function maskArea(x: number, y: number, w: number, h: number): Area {
  const left = Math.ceil(x);
  const top = Math.ceil(y);
  const right = Math.max(left, Math.ceil(x + w));
  const bottom = Math.max(top, Math.ceil(y + h));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

const movedPaint = (paint: Paint, dx: number, dy: number): Paint =>
  paint.kind === 'fade'
    ? { ...paint, x0: paint.x0 + dx, y0: paint.y0 + dy, x1: paint.x1 + dx, y1: paint.y1 + dy }
    : paint;

/**
 * The interpreter's screen with `pan` applied: drawing calls move by the view's pan (a fade moves
 * with the shape), `mask` reaches the rasterizer as its clip. Without a pan every call goes
 * straight through. After `resolution` the program draws on the view's own screen, shown on
 * `outer` scaled to fill it when the frame is flushed (resolution.ts).
 */
export function viewSurface(outer: BufferedSurface, view: DrawView): BufferedSurface {
  view.viewer = outer;
  const on = (): BufferedSurface => view.screen ?? outer;
  return {
    get width() {
      return on().width;
    },
    get height() {
      return on().height;
    },
    clear: (paint) => on().clear(paint),
    fillRect(x, y, w, h, paint) {
      const { panX: dx, panY: dy } = view;
      if (dx === 0 && dy === 0) on().fillRect(x, y, w, h, paint);
      else on().fillRect(x + dx, y + dy, w, h, movedPaint(paint, dx, dy));
    },
    point(x, y, paint) {
      on().point(x + view.panX, y + view.panY, movedPaint(paint, view.panX, view.panY));
    },
    line(x0, y0, x1, y1, thickness, paint) {
      const { panX: dx, panY: dy } = view;
      if (dx === 0 && dy === 0) on().line(x0, y0, x1, y1, thickness, paint);
      else on().line(x0 + dx, y0 + dy, x1 + dx, y1 + dy, thickness, movedPaint(paint, dx, dy));
    },
    ellipse(cx, cy, rx, ry, outline, paint) {
      const { panX: dx, panY: dy } = view;
      on().ellipse(cx + dx, cy + dy, rx, ry, outline, movedPaint(paint, dx, dy));
    },
    polygon(points, outline, paint) {
      const { panX: dx, panY: dy } = view;
      if (dx === 0 && dy === 0) on().polygon(points, outline, paint);
      else
        on().polygon(
          points.map((value, index) => value + (index % 2 === 0 ? dx : dy)),
          outline,
          movedPaint(paint, dx, dy),
        );
    },
    text(text, x, y, size, paint) {
      const { panX: dx, panY: dy } = view;
      on().text(text, x + dx, y + dy, size, movedPaint(paint, dx, dy));
    },
    getPixels: () => on().getPixels(),
    putPixels: (block) => on().putPixels(block),
    clip: (area) => on().clip?.(area),
    flush() {
      const screen = view.screen;
      if (screen === undefined) {
        outer.flush();
        return;
      }
      screen.flush();
      const shown = outer.getPixels();
      scaleInto(screen.getPixels(), shown);
      outer.putPixels(shown);
      outer.flush();
    },
  };
}
