import type { ListNode, Node } from './compile.js';
import { DENSITY_BUILTINS } from './density-words.js';
import { EFFECT_BUILTINS } from './effect-words.js';
import { FADE_BUILTINS } from './fade-function.js';
import { LIVE_VALUES_READ } from './input.js';
import { INPUT_BUILTINS } from './input-words.js';
import type { Builtin, Interpreter, Scope } from './interpreter.js';
import { LAYER_BUILTINS } from './layer-words.js';
import { arithmetic } from './math.js';
import { PAINTING_BUILTINS } from './painting-words.js';
import { PIXEL_WORD_BUILTINS } from './pixel-words.js';
import { SOUND_BUILTINS } from './sound-words.js';
import { TRANSFORM_BUILTINS } from './transform-words.js';
import type { Value } from './value.js';

export const BUILTINS = new Map<string, Builtin>();

function define(names: string | readonly string[], builtin: Builtin): void {
  for (const name of typeof names === 'string' ? [names] : names) BUILTINS.set(name, builtin);
}

for (const [name, builtin] of [
  ...INPUT_BUILTINS,
  ...TRANSFORM_BUILTINS,
  ...SOUND_BUILTINS,
  ...EFFECT_BUILTINS,
  ...LAYER_BUILTINS,
  ...PAINTING_BUILTINS,
  ...PIXEL_WORD_BUILTINS,
  ...FADE_BUILTINS,
  ...DENSITY_BUILTINS,
])
  define(name, builtin);

const numbers = (rt: Interpreter, list: ListNode, scope: Scope): number[] =>
  rt.evalArgs(list, scope).map((value) => rt.toNumber(value));

const nameOf = (node: Node | undefined): string | undefined =>
  node?.t === 'word' ? node.name : undefined;

// ---- definitions and control ----------------------------------------------------------------

define('def', (rt, list, scope) => {
  const name = nameOf(list.items[1]);
  // A dashed name reads as subtraction in the language; the reference runtime ignores such a def.
  if (name === undefined || !/^[$a-zA-Z_]\w*$/.test(name) || list.items.length !== 3) {
    rt.tell(
      'problem',
      `(def ...) at line ${list.line}, column ${list.column} needs a name and one value; it was skipped`,
    );
    return undefined;
  }
  const value = rt.evalNode(list.items[2], scope);
  rt.define(name, value, scope);
  return value;
});

define('now', (rt, list, scope) => {
  const name = nameOf(list.items[1]);
  if (name === undefined || list.items.length !== 3) return undefined;
  const value = rt.evalNode(list.items[2], scope);
  rt.assign(name, value, scope);
  return value;
});

define('die', (rt, list) => {
  const name = nameOf(list.items[1]);
  if (name !== undefined) rt.forget(name);
  return undefined;
});

define('later', (rt, list) => {
  rt.defineLater(list);
  return undefined;
});

define('if', (rt, list, scope) =>
  rt.truthy(rt.evalNode(list.items[1], scope)) ? rt.runBody(list.items, 2, scope) : undefined,
);

define('not', (rt, list, scope) => {
  const condition = rt.truthy(rt.evalNode(list.items[1], scope));
  if (list.items.length <= 2) return !condition;
  return condition ? undefined : rt.runBody(list.items, 2, scope);
});

function comparison(test: (a: number, b: number) => boolean): Builtin {
  return (rt, list, scope) => {
    const a = rt.toNumber(rt.evalNode(list.items[1], scope));
    const b = rt.toNumber(rt.evalNode(list.items[2], scope));
    const result = test(a, b);
    if (list.items.length <= 3) return result;
    return result ? rt.runBody(list.items, 3, scope) : undefined;
  };
}
define(
  '>',
  comparison((a, b) => a > b),
);
define(
  '<',
  comparison((a, b) => a < b),
);
define(
  '=',
  comparison((a, b) => a === b),
);

define('once', (rt, list, scope) => rt.once(list, scope));

define(['repeat', 'rep', 'bunch'], (rt, list, scope) => {
  const count = Math.floor(rt.toNumber(rt.evalNode(list.items[1], scope)));
  if (count > rt.repeatLimit) {
    rt.tell(
      'problem',
      `(repeat ${count} ...) at line ${list.line} is over the limit of ${rt.repeatLimit.toLocaleString('en-US')} and was skipped`,
    );
    return undefined;
  }
  // With three or more arguments, a bare word in second place names the loop variable.
  const iterator = list.items.length >= 4 ? nameOf(list.items[2]) : undefined;
  const from = iterator === undefined ? 2 : 3;
  const inner = rt.newScope(scope);
  let last: Value;
  for (let i = 0; i < count; i++) {
    rt.chargeSteps(1);
    if (iterator !== undefined) inner.vars.set(iterator, i);
    last = rt.runBody(list.items, from, inner);
  }
  return last;
});

define(['choose', '?'], (rt, list, scope, statement) => rt.pick(list, scope, statement));
define(['...', '..'], (rt, list, scope, statement) => rt.step(list, scope, statement));
define('yes', (rt, list, scope) =>
  list.items.length > 1 ? rt.evalNode(list.items[1], scope) : true,
);
define('no', () => undefined);

define('delay', (rt, list, scope, statement) => rt.timed(list, false, scope, statement));
define('hop', (rt, list, scope, statement) => rt.timed(list, true, scope, statement));

define(['log', 'debug'], (rt, list, scope) => rt.evalArgs(list, scope)[0]);

// ---- math -----------------------------------------------------------------------------------

define('+', (rt, list, scope) => arithmetic('+', numbers(rt, list, scope)));
define('-', (rt, list, scope) => arithmetic('-', numbers(rt, list, scope)));
define(['*', 'mul'], (rt, list, scope) => arithmetic('*', numbers(rt, list, scope)));
define('/', (rt, list, scope) => arithmetic('/', numbers(rt, list, scope)));
define(['%', 'mod'], (rt, list, scope) => arithmetic('%', numbers(rt, list, scope)));
define('min', (rt, list, scope) => {
  const found = rt
    .evalArgs(list, scope)
    .filter((value): value is number => typeof value === 'number');
  return found.length === 0 ? 0 : Math.min(...found);
});
define('max', (rt, list, scope) => {
  const found = rt
    .evalArgs(list, scope)
    .filter((value): value is number => typeof value === 'number');
  return found.length === 0 ? 0 : Math.max(...found);
});
define('sin', (rt, list, scope) =>
  list.items.length > 1
    ? Math.sin(numbers(rt, list, scope)[0] ?? 0)
    : Math.sin(rt.now.frame * 0.01),
);
define('cos', (rt, list, scope) =>
  list.items.length > 1
    ? Math.cos(numbers(rt, list, scope)[0] ?? 0)
    : Math.cos(rt.now.frame * 0.01),
);
define('floor', (rt, list, scope) => Math.floor(numbers(rt, list, scope)[0] ?? 0));
define('ceil', (rt, list, scope) => Math.ceil(numbers(rt, list, scope)[0] ?? 0));
define('round', (rt, list, scope) => Math.round(numbers(rt, list, scope)[0] ?? 0));
define('random', (rt, list, scope) => {
  const [a, b] = numbers(rt, list, scope);
  const r = rt.randomNumber();
  if (a === undefined) return Math.floor(r * 256);
  if (b === undefined) return Math.floor(r * a);
  return Math.floor(r * (b - a + 1)) + a;
});
define('wiggle', (rt, list, scope) => {
  const amount = list.items.length > 1 ? (numbers(rt, list, scope)[0] ?? 10) : 10;
  return (rt.randomNumber() - 0.5) * amount;
});

// ---- values as calls ------------------------------------------------------------------------

// The live values it reads (`(clock)`, `(penx)`) are called the same way.
for (const name of ['w', 'width', 'h', 'height', 'frame', 'f', ...LIVE_VALUES_READ]) {
  define(name, (rt, list, scope) =>
    rt.evalNode(
      { t: 'word', name: list.items[0]?.t === 'word' ? list.items[0].name : name },
      scope,
    ),
  );
}

// ---- screen and drawing ---------------------------------------------------------------------

define('wipe', (rt, list, scope) => {
  const ink = rt.inkFrom(rt.evalArgs(list, scope));
  if (ink !== undefined) rt.wipe(rt.paintOf(ink));
  return undefined;
});

define('backdrop', (rt, list, scope) => {
  const state = rt.stateOfList(list);
  if (state.done) return undefined;
  state.done = true;
  const ink = rt.inkFrom(rt.evalArgs(list, scope));
  if (ink !== undefined) rt.wipe(rt.paintOf(ink));
  return undefined;
});

define('coat', (rt, list, scope) => {
  const values = rt.evalArgs(list, scope);
  const alpha = values.length >= 2 ? values[values.length - 1] : 128;
  const colorValues = values.length >= 2 ? values.slice(0, -1) : values;
  const ink = rt.inkFrom([...colorValues.slice(0, 1), alpha]);
  if (ink === undefined) return undefined;
  if (ink.kind === 'solid' && colorValues.length >= 3) {
    // (coat r g b alpha)
    const [r, g, b] = colorValues.map((value) => rt.toNumber(value));
    rt.fill({
      kind: 'solid',
      color: [r ?? 0, g ?? 0, b ?? 0, Math.max(0, Math.min(255, rt.toNumber(alpha)))],
    });
    return undefined;
  }
  rt.fill(rt.paintOf(ink));
  return undefined;
});

define('ink', (rt, list, scope) => {
  rt.setInk(rt.inkFrom(rt.evalArgs(list, scope)));
  return undefined;
});

define(['fill', 'nostroke'], (rt) => {
  rt.setOutline(0);
  return undefined;
});
define(['outline', 'stroke', 'nofill'], (rt) => {
  rt.setOutline(1);
  return undefined;
});

define('line', (rt, list, scope) => {
  const values = rt.evalArgs(list, scope);
  const { numbers: n } = rt.shapeArgs(values, ['x', 'y', 'x', 'y']);
  const thickness = values.length >= 5 ? Math.max(1, rt.toNumber(values[4])) : 1;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = n;
  // A canvas clips a long line to the screen, so the cost stops at the screen's size.
  const reach = rt.screen.width + rt.screen.height;
  rt.chargeSteps(1 + Math.ceil(Math.min(reach, Math.hypot(x1 - x0, y1 - y0)) / 256));
  rt.screen.line(x0, y0, x1, y1, thickness, rt.paintOf(undefined, true));
  return undefined;
});

define('box', (rt, list, scope) => {
  const { numbers: n, mode } = rt.shapeArgs(rt.evalArgs(list, scope), [
    'x',
    'y',
    'width',
    'height',
  ]);
  const [x = 0, y = 0, w = 0, h = 0] = n;
  rt.drawBox(x, y, w, h, mode);
  return undefined;
});

define('circle', (rt, list, scope) => {
  const { numbers: n, mode } = rt.shapeArgs(rt.evalArgs(list, scope), ['x', 'y', 'radius']);
  const [x = 0, y = 0, r = 0] = n;
  rt.chargeArea(2 * r, 2 * r);
  rt.screen.ellipse(x, y, Math.abs(r), Math.abs(r), mode.outline, rt.paintOf(undefined, true));
  return undefined;
});

define('oval', (rt, list, scope) => {
  const { numbers: n, mode } = rt.shapeArgs(rt.evalArgs(list, scope), [
    'x',
    'y',
    'radius',
    'radius',
  ]);
  const [x = 0, y = 0, rx = 0, ry = 0] = n;
  rt.chargeArea(2 * rx, 2 * ry);
  rt.screen.ellipse(x, y, Math.abs(rx), Math.abs(ry), mode.outline, rt.paintOf());
  return undefined;
});

define('tri', (rt, list, scope) => {
  const { numbers: n, mode } = rt.shapeArgs(rt.evalArgs(list, scope), [
    'x',
    'y',
    'x',
    'y',
    'x',
    'y',
  ]);
  rt.chargeSteps(2);
  rt.screen.polygon(n, mode.outline, rt.paintOf());
  return undefined;
});

define('shape', (rt, list, scope) => {
  const values = rt.evalArgs(list, scope);
  const count = values.filter((value) => typeof value !== 'string').length;
  // (shape n): a random n-sided shape; otherwise x y pairs.
  const corners =
    count === 1
      ? Math.max(3, Math.min(64, Math.floor(rt.toNumber(values[0]))))
      : Math.floor(count / 2);
  const ranges = Array.from(
    { length: corners * 2 },
    (_, i) => (i % 2 === 0 ? 'x' : 'y') as 'x' | 'y',
  );
  const { numbers: n, mode } = rt.shapeArgs(count === 1 ? values.slice(1) : values, ranges);
  if (corners < 3) return undefined;
  rt.chargeSteps(1 + corners);
  rt.screen.polygon(n, mode.outline, rt.paintOf());
  return undefined;
});

define(['point', 'plot'], (rt, list, scope) => {
  const { numbers: n } = rt.shapeArgs(rt.evalArgs(list, scope), ['x', 'y']);
  const [x = 0, y = 0] = n;
  rt.screen.point(x, y, rt.paintOf());
  return undefined;
});

define('write', (rt, list, scope) => {
  const values = rt.evalArgs(list, scope);
  const [textValue, xValue, yValue, background, sizeValue] = values;
  const text = textValue === undefined || typeof textValue === 'symbol' ? '' : String(textValue);
  // Text larger than four screens shows nothing more, so its size stops there.
  const largest = 4 * Math.max(rt.screen.width, rt.screen.height);
  const scale = sizeValue === undefined ? 1 : rt.toNumber(sizeValue);
  const size = Math.min(largest, rt.textSize * Math.max(0.25, scale));
  const textWidth = text.length * size * 0.6;
  const x =
    xValue === 'center'
      ? (rt.screen.width - textWidth) / 2
      : xValue === undefined
        ? rt.randomNumberIn('x')
        : rt.toNumber(xValue, 'x');
  const y =
    yValue === 'center'
      ? (rt.screen.height - size) / 2
      : yValue === undefined
        ? rt.randomNumberIn('y')
        : rt.toNumber(yValue, 'y');
  rt.chargeSteps(1 + text.length);
  if (
    background !== undefined &&
    !['nil', 'false', 'transparent', 'clear'].includes(String(background)) &&
    background !== false
  ) {
    const ink = rt.inkFrom([background]);
    if (ink !== undefined) rt.screen.fillRect(x, y, textWidth, size, rt.paintOf(ink));
  }
  if (text !== '') rt.screen.text(text, x, y, size, rt.paintOf());
  return undefined;
});

define('fps', (rt, list, scope) => {
  rt.setFps(rt.evalArgs(list, scope));
  return undefined;
});

// ---- embedding ------------------------------------------------------------------------------

define('embed', (rt, list, scope) => {
  const target = list.items[1];
  const code = target?.t === 'word' ? target.name : undefined;
  if (code === undefined || !/^\$[0-9A-Za-z]{3,12}$/.test(code)) {
    rt.tell('problem', `(embed ...) at line ${list.line} needs a $code`);
    return undefined;
  }
  return rt.embed(code, list.items.slice(2), list, scope);
});
