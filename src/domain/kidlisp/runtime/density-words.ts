/**
 * `(auto-density ...)` and its alias `scale`, read from the newest reference's global environment
 * (kidlisp.mjs): they turn on or off the reference's lowering of pixel density while frames fall
 * below an FPS target. Renders here are not timed and the player draws every frame at the canvas's
 * pixels, so the density stays 1, as it does in the reference whenever frames keep up: the words
 * only answer as the reference does (yes when on, no when off, the setting otherwise).
 */
import type { Builtin, Interpreter } from './interpreter.js';

const enabled = new WeakMap<Interpreter, boolean>();
const KEYWORDS: ReadonlySet<string> = new Set(['on', 'off', 'status']);

const autoDensity: Builtin = (rt, list, scope) => {
  const [first] = list.items
    .slice(1)
    .map((node) =>
      node.t === 'word' && KEYWORDS.has(node.name) ? node.name : rt.evalNode(node, scope),
    );
  if (first === undefined || first === 'on' || first === true) {
    enabled.set(rt, true);
    return true;
  }
  if (first === 'off' || first === false) {
    enabled.set(rt, false);
    return false;
  }
  // The reference answers its status object here; its one field a program can use is `enabled`.
  if (first === 'status') return enabled.get(rt) ?? false;
  if (typeof first === 'number') {
    enabled.set(rt, true);
    return true;
  }
  return enabled.get(rt) ?? false;
};

export const DENSITY_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['auto-density', autoDensity],
  ['scale', autoDensity],
];
