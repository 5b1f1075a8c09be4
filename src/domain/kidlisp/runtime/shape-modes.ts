/**
 * How shapes are drawn: the mode word a shape's arguments may end with (`fill`, `outline:3`,
 * `inline`, `*center`) and the box that mode draws, outlined as the reference's `box` is.
 */
import type { Paint, Surface } from './types.js';

export interface Mode {
  /** 0 fills; N outlines N pixels wide. */
  outline: number;
  /** `inline`: a box's outline inside its bounds; `outline`/`stroke`: just outside, as the reference. */
  inside: boolean;
  center: boolean;
}

const MODE = /^(fill|outline|inline|stroke)(?::(\d+(?:\.\d+)?))?(?:\*?(center))?$/;

/** Takes a trailing mode word off `values` (it is removed); else the program's default outline. */
export function takeMode(values: unknown[], defaultOutline: number): Mode {
  const last = values[values.length - 1];
  if (typeof last !== 'string') return { outline: defaultOutline, inside: false, center: false };
  const match = MODE.exec(last);
  if (match === null) return { outline: defaultOutline, inside: false, center: false };
  values.pop();
  const outlined = match[1] !== 'fill';
  return {
    outline: outlined ? Math.max(1, Number(match[2] ?? 1)) : 0,
    inside: match[1] === 'inline',
    center: match[3] !== undefined,
  };
}

export interface BoxBounds {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box's whole-pixel bounds: centred when the mode says so, negative sizes flipped. */
export function boxBounds(
  x: number,
  y: number,
  width: number,
  height: number,
  mode: Mode,
): BoxBounds {
  let left = Math.floor(mode.center ? x - width / 2 : x);
  let top = Math.floor(mode.center ? y - height / 2 : y);
  let w = Math.ceil(Math.abs(width)) * Math.sign(width);
  let h = Math.ceil(Math.abs(height)) * Math.sign(height);
  if (w < 0) [left, w] = [left + w, -w];
  if (h < 0) [top, h] = [top + h, -h];
  return { left, top, width: w, height: h };
}

/** Fills the box, or outlines it: just outside its bounds, or inside them for `inline`. */
export function paintBox(screen: Surface, bounds: BoxBounds, mode: Mode, paint: Paint): void {
  const { left, top, width: w, height: h } = bounds;
  const t = mode.outline;
  if (t <= 0 || (mode.inside && (t * 2 > w || t * 2 > h))) {
    screen.fillRect(left, top, w, h, paint);
  } else if (!mode.inside && t === 1) {
    // The reference's outline: one-pixel lines just outside the box.
    screen.line(left - 1, top - 1, left + w, top - 1, 1, paint);
    screen.line(left - 1, top + h, left + w, top + h, 1, paint);
    screen.line(left - 1, top, left - 1, top + h - 1, 1, paint);
    screen.line(left + w, top, left + w, top + h - 1, 1, paint);
  } else if (!mode.inside) {
    screen.fillRect(left - t, top - t, w + 2 * t, t, paint);
    screen.fillRect(left - t, top + h, w + 2 * t, t, paint);
    screen.fillRect(left - t, top, t, h, paint);
    screen.fillRect(left + w, top, t, h, paint);
  } else if (t === 1) {
    screen.line(left, top, left + w - 1, top, 1, paint);
    screen.line(left, top + h - 1, left + w - 1, top + h - 1, 1, paint);
    screen.line(left, top + 1, left, top + h - 2, 1, paint);
    screen.line(left + w - 1, top + 1, left + w - 1, top + h - 2, 1, paint);
  } else {
    screen.fillRect(left, top, w, t, paint);
    screen.fillRect(left, top + h - t, w, t, paint);
    screen.fillRect(left, top + t, t, h - 2 * t, paint);
    screen.fillRect(left + w - t, top + t, t, h - 2 * t, paint);
  }
}
