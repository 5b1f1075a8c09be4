import { blendBlock, copyArea, floodRegion, paintRegion } from '../raster/regions.js';
import type { ListNode, Node } from './compile.js';
import { maskArea } from './draw-view.js';
import type { Builtin, Interpreter, Scope } from './interpreter.js';
import { resolution } from './resolution.js';
import type { PixelBlock } from './types.js';
import { RANDOM, type Value } from './value.js';

/** One work unit per this many pixels a word touches (the interpreter's rate). */
const PIXELS_PER_STEP = 64;

/** What `steal` took: its pixels and where they were. */
interface Stolen {
  pixels: PixelBlock;
  x: number;
  y: number;
}

const stolen = new WeakMap<Interpreter, Stolen>();

/** A word whose arguments are evaluated and handed to `apply`; it returns what `apply` does. */
const evaluated =
  (apply: (rt: Interpreter, values: Value[]) => Value): Builtin =>
  (rt, list, scope) =>
    apply(rt, rt.evalArgs(list, scope));

/** `(flood x y [color])`: fills the area of one color around (x, y) with the color or the ink. */
function flood(rt: Interpreter, values: Value[]): Value {
  if (values.length < 2) return undefined;
  const x = Math.floor(rt.toNumber(values[0], 'x'));
  const y = Math.floor(rt.toNumber(values[1], 'y'));
  const paint = rt.paintOf(values.length > 2 ? rt.inkFrom(values.slice(2)) : undefined);
  const block = rt.screen.getPixels();
  const region = floodRegion(block, x, y);
  rt.chargeSteps(1 + Math.ceil(region.count / PIXELS_PER_STEP));
  if (region.count === 0) return undefined;
  paintRegion(block, region, paint, rt.view.mask);
  rt.screen.putPixels(block);
  return undefined;
}

function mask(rt: Interpreter, values: Value[]): Value {
  if (values.length < 4) return undefined;
  const [x, y, w, h] = values.map((value, index) =>
    rt.toNumber(value, (['x', 'y', 'width', 'height'] as const)[index]),
  );
  rt.view.mask = maskArea(x ?? 0, y ?? 0, w ?? 0, h ?? 0);
  rt.screen.clip?.(rt.view.mask);
  return undefined;
}

function unmask(rt: Interpreter): Value {
  rt.view.mask = undefined;
  rt.screen.clip?.(undefined);
  return undefined;
}

/** `(pan dx [dy])`: later drawing moves by whole pixels (dy is dx when left out); it adds up. */
function pan(rt: Interpreter, values: Value[]): Value {
  if (values.length === 0) return undefined;
  const dx = Math.floor(rt.toNumber(values[0]));
  const dy = values.length > 1 ? Math.floor(rt.toNumber(values[1])) : dx;
  // Held to a million pixels: further than any screen, and still exact in floating point.
  rt.view.panX = Math.max(-1e6, Math.min(1e6, rt.view.panX + dx));
  rt.view.panY = Math.max(-1e6, Math.min(1e6, rt.view.panY + dy));
  return undefined;
}

/** `(steal x y w h)`: keeps a copy of a rectangle of the screen (the whole screen by default). */
function steal(rt: Interpreter, values: Value[]): Value {
  const { width, height } = rt.screen;
  const n = (index: number, fallback: number) =>
    values.length > index ? Math.floor(rt.toNumber(values[index])) : fallback;
  const x = n(0, 0);
  const y = n(1, 0);
  const area = {
    x,
    y,
    width: Math.max(0, Math.min(width, n(2, width))),
    height: Math.max(0, Math.min(height, n(3, height))),
  };
  rt.chargeSteps(1 + Math.ceil((area.width * area.height) / PIXELS_PER_STEP));
  stolen.set(rt, { pixels: copyArea(rt.screen.getPixels(), area), x, y });
  return undefined;
}

/** `(putback [x y])`: blends what `steal` kept back, where it was or at (x, y), panned and masked. */
function putback(rt: Interpreter, values: Value[]): Value {
  const held = stolen.get(rt);
  if (held === undefined) return undefined;
  const x = (values.length > 0 ? Math.floor(rt.toNumber(values[0], 'x')) : held.x) + rt.view.panX;
  const y = (values.length > 1 ? Math.floor(rt.toNumber(values[1], 'y')) : held.y) + rt.view.panY;
  const { width, height } = held.pixels;
  rt.chargeSteps(1 + Math.ceil((width * height) / PIXELS_PER_STEP));
  const block = rt.screen.getPixels();
  blendBlock(block, held.pixels, x, y, rt.view.mask);
  rt.screen.putPixels(block);
  return undefined;
}

/** The numbers a `lines`/`poly`/`pline` argument gives: a list written as data gives each item. */
function coordinates(rt: Interpreter, nodes: readonly Node[], scope: Scope): number[] {
  const numbers: number[] = [];
  for (const node of nodes) {
    const head = node.t === 'list' ? node.items[0] : undefined;
    const data = node.t === 'list' && head !== undefined && head.t !== 'word';
    const items = data && node.t === 'list' ? node.items : [node];
    for (const item of items) {
      const value = rt.evalNode(item, scope);
      if (typeof value === 'number' || value === RANDOM) numbers.push(rt.toNumber(value, 'x'));
    }
  }
  return numbers;
}

/** Draws one segment with the ink, charged as `line` is (by its length on screen). */
function segment(rt: Interpreter, at: number[], i: number, j: number, thickness: number): void {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = [at[i], at[i + 1], at[j], at[j + 1]];
  const reach = rt.screen.width + rt.screen.height;
  rt.chargeSteps(1 + Math.ceil((Math.min(reach, Math.hypot(x1 - x0, y1 - y0)) * thickness) / 256));
  rt.screen.line(x0, y0, x1, y1, thickness, rt.paintOf(undefined, true));
}

const drawing =
  (draw: (rt: Interpreter, numbers: number[]) => void): Builtin =>
  (rt: Interpreter, list: ListNode, scope: Scope) => {
    draw(rt, coordinates(rt, list.items.slice(1), scope));
    return undefined;
  };

/** `(lines x0 y0 x1 y1 ...)`: a separate line for every four numbers. */
const lines = drawing((rt, at) => {
  for (let i = 0; i + 3 < at.length; i += 4) segment(rt, at, i, i + 2, 1);
});

/** `(poly x0 y0 x1 y1 x2 y2 ...)`: one-pixel lines joining the points in order (not closed). */
const poly = drawing((rt, at) => {
  for (let i = 0; i + 3 < at.length; i += 2) segment(rt, at, i, i + 2, 1);
});

/** `(pline x0 y0 x1 y1 ... [thickness])`: as `poly`; an odd last number is the thickness. */
const pline = drawing((rt, at) => {
  const thickness = at.length % 2 === 1 ? Math.max(1, Math.min(256, at.pop() ?? 1)) : 1;
  for (let i = 0; i + 3 < at.length; i += 2) segment(rt, at, i, i + 2, thickness);
});

/** The first argument written out (`?` as the number it draws); undefined when there is none. */
function text(rt: Interpreter, values: Value[]): string | undefined {
  const value = values[0] === RANDOM ? rt.toNumber(RANDOM) : values[0];
  return value === undefined ? undefined : String(value);
}

/** `(len x)`: how many characters `x` has when written out (`(len 123)` is 3). */
const len = (rt: Interpreter, values: Value[]): Value => text(rt, values)?.length;

/** Words that read or change pixels directly, and the drawing state (`pan`, `mask`) they share. */
export const PIXEL_WORD_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['flood', evaluated(flood)],
  ['mask', evaluated(mask)],
  ['unmask', (rt) => unmask(rt)],
  ['pan', evaluated(pan)],
  [
    'unpan',
    (rt) => {
      rt.view.panX = 0;
      rt.view.panY = 0;
      return undefined;
    },
  ],
  ['steal', evaluated(steal)],
  ['putback', evaluated(putback)],
  ['lines', lines],
  ['poly', poly],
  ['pline', pline],
  ['resolution', evaluated(resolution)],
  ['len', evaluated(len)],
  // The reference's HUD label sits over the page, not in the picture: it is the value here.
  ['label', evaluated(text)],
  // `(range list start end)` slices a list; no value here is a list, so it gives nothing.
  ['range', evaluated(() => undefined)],
];
