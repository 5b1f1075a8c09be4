/**
 * `(fade color color ... [direction])`: builds a fade word, as the newest reference's `fade` does
 * (its global environment in kidlisp.mjs), for `ink`, `wipe` or `coat` to paint with:
 * `(fade red blue)` is `fade:red-blue`, `(fade red blue vertical)` `fade:red-blue:vertical`,
 * `(fade red blue 45)` `fade:red-blue:45`; fewer than two arguments give `fade:red-blue`.
 */
import { isColorWord } from '../colors.js';
import type { Builtin } from './interpreter.js';

const DIRECTIONS: ReadonlySet<string> = new Set([
  'horizontal',
  'horizontal-reverse',
  'vertical',
  'vertical-reverse',
  'diagonal',
  'diagonal-reverse',
]);

/** Color and direction names are taken as written; anything else is evaluated. */
const fadeFunction: Builtin = (rt, list, scope) => {
  const args = list.items
    .slice(1)
    .map((node) =>
      node.t === 'word' && (isColorWord(node.name) || DIRECTIONS.has(node.name))
        ? node.name
        : rt.evalNode(node, scope),
    );
  if (args.length < 2) return 'fade:red-blue';
  const last = args[args.length - 1];
  const colors = (values: readonly unknown[]) => values.map(String).join('-');
  if ((typeof last === 'string' && DIRECTIONS.has(last)) || typeof last === 'number')
    return `fade:${colors(args.slice(0, -1))}:${last}`;
  if (args.length >= 3) {
    // The reference reads a third or later last argument as a direction, even a color name:
    // a number in a string is the angle, anything else is kept quoted (here it reads as angle 0).
    const angle = typeof last === 'string' ? Number.parseFloat(last) : Number.NaN;
    return `fade:${colors(args.slice(0, -1))}:${Number.isNaN(angle) ? JSON.stringify(last) : angle}`;
  }
  return `fade:${colors(args)}`;
};

export const FADE_BUILTINS: readonly (readonly [string, Builtin])[] = [['fade', fadeFunction]];
