import type { Builtin, Interpreter } from './interpreter.js';
import {
  blurPixels,
  contrastPixels,
  invertPixels,
  scrollPixels,
  spinPixels,
  zoomPixels,
} from './pixels.js';
import type { Value } from './value.js';

/** The eight directions `(scroll)` with no arguments chooses from, once per program. */
const DIRECTIONS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [-1, -1],
  [1, -1],
  [-1, 1],
] as const;

function scroll(rt: Interpreter, values: Value[]): void {
  const state = rt.scrollState;
  let dx: number;
  let dy: number;
  if (values.length === 0) {
    state.direction ??= DIRECTIONS[Math.floor(rt.randomNumber() * DIRECTIONS.length)] ?? [1, 0];
    [dx, dy] = state.direction;
  } else {
    dx = rt.toNumber(values[0]);
    dy = values.length > 1 ? rt.toNumber(values[1]) : 0;
  }
  // Fractions carry over to later frames, so (scroll 0.5) moves one pixel every other call.
  state.carryX += dx;
  state.carryY += dy;
  const wholeX = Math.trunc(state.carryX);
  const wholeY = Math.trunc(state.carryY);
  state.carryX -= wholeX;
  state.carryY -= wholeY;
  if (wholeX !== 0 || wholeY !== 0) rt.pixels((block) => scrollPixels(block, wholeX, wholeY));
}

/**
 * The optional center arguments of `zoom` and `spin`, in the pixels they work on: the middle of
 * the screen (or of the `mask`) by default; a center given is in screen coordinates.
 */
export function center(rt: Interpreter, values: Value[]): [number, number] {
  const area = rt.pixelArea;
  return [
    values.length > 1 ? rt.toNumber(values[1], 'x') - area.x : area.width / 2,
    values.length > 2 ? rt.toNumber(values[2], 'y') - area.y : area.height / 2,
  ];
}

export const first = (rt: Interpreter, values: Value[], fallback: number) =>
  values.length === 0 ? fallback : rt.toNumber(values[0]);

/** A word whose arguments are evaluated and handed to `apply`; it returns nothing. */
export const transform =
  (apply: (rt: Interpreter, values: Value[]) => void): Builtin =>
  (rt, list, scope) => {
    apply(rt, rt.evalArgs(list, scope));
    return undefined;
  };

/** Pixel transforms: whole-screen work on the RGBA block (`pixels.ts`). */
export const TRANSFORM_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['scroll', transform(scroll)],
  [
    'zoom',
    transform((rt, values) => {
      const [cx, cy] = center(rt, values);
      rt.pixels((block) => zoomPixels(block, first(rt, values, 1.1), cx, cy));
    }),
  ],
  ...(['spin', 'smoothspin'] as const).map(
    (name) =>
      [
        name,
        transform((rt, values) => {
          const [cx, cy] = center(rt, values);
          rt.pixels((block) => spinPixels(block, first(rt, values, 1), cx, cy));
        }),
      ] as const,
  ),
  ['resetSpin', () => undefined],
  [
    'blur',
    transform((rt, values) => rt.pixels((block) => blurPixels(block, first(rt, values, 1)))),
  ],
  [
    'contrast',
    transform((rt, values) => rt.pixels((block) => contrastPixels(block, first(rt, values, 1.1)))),
  ],
  ['invert', transform((rt) => rt.pixels((block) => invertPixels(block)))],
];
