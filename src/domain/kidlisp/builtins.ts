/** Built-in words of KidLisp as the reference runtime knows them (docs/kidlisp.md, "Built-ins"). */

const DEFINITIONS_AND_CONTROL = [
  'def',
  'now',
  'die',
  'later',
  'if',
  'not',
  '>',
  '<',
  '=',
  'once',
  'repeat',
  'rep',
  'bunch',
  'choose',
  '?',
  '...',
  '..',
  'yes',
  'no',
  'range',
  'tap',
  'draw',
  'lift',
  'delay',
  'hop',
  'cache',
  'debug',
  'log',
  'source',
  'perf',
  'net.handles',
];
const SCREEN_AND_DRAWING = [
  'wipe',
  'backdrop',
  'coat',
  'ink',
  'line',
  'lines',
  'box',
  'circle',
  'oval',
  'tri',
  'point',
  'plot',
  'flood',
  'shape',
  'write',
  'paste',
  'stamp',
  'painting',
  'tape',
  'fill',
  'nofill',
  'outline',
  'stroke',
  'nostroke',
  'resolution',
  'mask',
  'unmask',
  'steal',
  'putback',
  'bake',
  'burn',
  'fps',
  'label',
  'len',
  'ready?',
  'fade',
  'auto-density',
  'scale',
];
const PIXEL_TRANSFORMS = [
  'scroll',
  'zoom',
  'spin',
  'smoothspin',
  'resetSpin',
  'suck',
  'blur',
  'sharpen',
  'invert',
  'contrast',
  'flip',
  'sort',
  'pan',
  'unpan',
];
/** Values that come from the world outside the program: time, sound, pointer, parameters. */
export const LIVE_INPUT_VALUES = [
  'clock',
  'amp',
  'leftAmp',
  'rightAmp',
  'beat',
  'kick',
  'mic',
  'paramA',
  'paramB',
  'paramC',
  'down',
  'penx',
  'peny',
  'dx',
  'dy',
] as const;
const VALUES = ['width', 'w', 'height', 'h', 'frame', 'f', ...LIVE_INPUT_VALUES];
const MATH = [
  '+',
  '-',
  '*',
  '/',
  '%',
  'mod',
  'min',
  'max',
  'sin',
  'cos',
  'random',
  'wiggle',
  'floor',
  'ceil',
  'round',
  'mul',
];
const AUDIO = [
  'melody',
  'amplitude',
  'speaker',
  'overtone',
  'noise',
  'pluck',
  'bell',
  'sub',
  'flute',
  'hat',
  'voice',
];
const EMBEDDING = ['embed', 'jump'];
const THREE_D_AND_TURTLE = [
  'cube',
  'quad',
  'trans',
  'form',
  'cubespin',
  'cubespin2',
  'cubepos',
  'cubescale',
  'cuberot',
  'camrot',
  'camrotx',
  'camroty',
  'camrotz',
  'camspin',
  'camspinx',
  'camspiny',
  'camspinz',
  'crawl',
  'left',
  'right',
  'up',
  'goto',
  'face',
];
const TEXT = ['flow', 'heading', 'paragraph', 'link', 'fetch', 'get', 'listen'];

/** Functions of the host paint API that KidLisp falls back to. */
const HOST_DRAWING_NAMES = ['plot', 'poly', 'pline', 'shear'];

const builtins: ReadonlySet<string> = new Set([
  ...DEFINITIONS_AND_CONTROL,
  ...SCREEN_AND_DRAWING,
  ...PIXEL_TRANSFORMS,
  ...VALUES,
  ...MATH,
  ...AUDIO,
  ...EMBEDDING,
  ...THREE_D_AND_TURTLE,
  ...TEXT,
  ...HOST_DRAWING_NAMES,
]);

/** The built-in words by family, as the reference's docs group them (the KidLisp reference resource lists them so). */
export const BUILTIN_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'definitions and control': DEFINITIONS_AND_CONTROL,
  'screen and drawing': SCREEN_AND_DRAWING,
  'pixel transforms': PIXEL_TRANSFORMS,
  values: VALUES,
  math: MATH,
  audio: AUDIO,
  embedding: EMBEDDING,
  '3D and turtle': THREE_D_AND_TURTLE,
  text: TEXT,
  'host drawing': HOST_DRAWING_NAMES,
};

export function isBuiltin(name: string): boolean {
  return builtins.has(name);
}

/** Names people expect from other Lisps or the old reference docs, which KidLisp lacks. */
const MISSING_NAMES: ReadonlyMap<string, string> = new Map([
  ['abs', 'there is no abs'],
  ['sqrt', 'there is no sqrt'],
  ['pow', 'there is no pow; multiply with (* x x)'],
  ['tan', 'there is no tan; use sin and cos'],
  ['pi', 'there is no pi; write 3.14159'],
  ['>=', 'there is no >=; use > or ='],
  ['<=', 'there is no <=; use < or ='],
  ['else', 'there is no else: every form after the condition of if runs'],
  ['cond', 'there is no cond; use if'],
  ['let', 'there is no let; use def'],
  ['lambda', 'there is no lambda; use later'],
]);

/** Why a name that looks like a built-in does not exist, or undefined if it is not such a name. */
export function missingNameHint(name: string): string | undefined {
  return MISSING_NAMES.get(name);
}

export interface Arity {
  min: number;
  /** Set when the runtime wants exactly this many arguments. */
  exact?: number;
  usage: string;
}

const ARITIES: ReadonlyMap<string, Arity> = new Map<string, Arity>([
  ['def', { min: 2, exact: 2, usage: 'def name value' }],
  ['now', { min: 2, exact: 2, usage: 'now name value' }],
  ['die', { min: 1, usage: 'die name' }],
  ['later', { min: 2, usage: 'later name params... (body)' }],
  ['if', { min: 1, usage: 'if condition body...' }],
  ['not', { min: 1, usage: 'not condition body...' }],
  ['>', { min: 2, usage: '> a b body...' }],
  ['<', { min: 2, usage: '< a b body...' }],
  ['=', { min: 2, usage: '= a b body...' }],
  ['once', { min: 1, usage: 'once expression...' }],
  ['repeat', { min: 2, usage: 'repeat n [iterator] expression...' }],
  ['rep', { min: 2, usage: 'rep n [iterator] expression...' }],
  ['bunch', { min: 2, usage: 'bunch n [iterator] expression...' }],
  ['range', { min: 3, exact: 3, usage: 'range iterable start end' }],
  ['delay', { min: 2, usage: 'delay seconds action' }],
  ['hop', { min: 3, usage: 'hop seconds a b' }],
  ['cache', { min: 1, usage: 'cache $code' }],
  ['coat', { min: 1, usage: 'coat color [alpha]' }],
  ['backdrop', { min: 1, usage: 'backdrop color' }],
  ['mask', { min: 4, usage: 'mask x y w h' }],
  ['trans', { min: 2, usage: 'trans form transformation...' }],
  ['embed', { min: 1, usage: 'embed $code [x y w h alpha]' }],
  ['jump', { min: 1, usage: 'jump destination' }],
  ['melody', { min: 1, usage: 'melody string [bpm]' }],
]);

export function arityOf(name: string): Arity | undefined {
  return ARITIES.get(name);
}

export const REPEAT_LIMIT = 10_000;

export const REPEAT_NAMES: ReadonlySet<string> = new Set(['repeat', 'rep', 'bunch']);
export const BACKGROUND_NAMES: ReadonlySet<string> = new Set(['wipe', 'backdrop']);
export const ANIMATION_NAMES: ReadonlySet<string> = new Set([
  'wiggle',
  'spin',
  'scroll',
  'zoom',
  'smoothspin',
]);
export const INTERACTION_NAMES: ReadonlySet<string> = new Set(['tap', 'draw', 'lift']);
