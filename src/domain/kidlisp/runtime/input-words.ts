import type { HandlerKind } from './input.js';
import type { Builtin } from './interpreter.js';

/** `(tap body...)`, `(draw body...)`, `(lift body...)`: register the body the next such event runs. */
const registering =
  (kind: HandlerKind): Builtin =>
  (rt, list) => {
    rt.pointer.register(kind, list);
    return undefined;
  };

export const INPUT_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['tap', registering('tap')],
  ['draw', registering('draw')],
  ['lift', registering('lift')],
];
