import type { Builtin } from './interpreter.js';

/** `bake` and `burn` (layers.ts); their arguments, if any, are not read, as in the reference. */
export const LAYER_BUILTINS: readonly (readonly [string, Builtin])[] = [
  [
    'bake',
    (rt) => {
      rt.layer('bake');
      return undefined;
    },
  ],
  [
    'burn',
    (rt) => {
      rt.layer('burn');
      return undefined;
    },
  ],
];
