import type { RGBA } from './types.js';

/**
 * RGB of the CSS named colors, the same names as the validator's table (src/domain/kidlisp/colors.ts).
 * Packed as `name:rrggbb` to keep the file short.
 */
const CSS_HEX =
  'aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff beige:f5f5dc ' +
  'bisque:ffe4c4 black:000000 blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2 brown:a52a2a ' +
  'burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 chocolate:d2691e coral:ff7f50 ' +
  'cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b ' +
  'darkcyan:008b8b darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 ' +
  'darkkhaki:bdb76b darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 ' +
  'darkorchid:9932cc darkred:8b0000 darksalmon:e9967a darkseagreen:8fbc8f darkslateblue:483d8b ' +
  'darkslategray:2f4f4f darkslategrey:2f4f4f darkturquoise:00ced1 darkviolet:9400d3 ' +
  'deeppink:ff1493 deepskyblue:00bfff dimgray:696969 dimgrey:696969 dodgerblue:1e90ff ' +
  'firebrick:b22222 floralwhite:fffaf0 forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ' +
  'ghostwhite:f8f8ff gold:ffd700 goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f ' +
  'grey:808080 honeydew:f0fff0 hotpink:ff69b4 indianred:cd5c5c indigo:4b0082 ivory:fffff0 ' +
  'khaki:f0e68c lavender:e6e6fa lavenderblush:fff0f5 lawngreen:7cfc00 lemonchiffon:fffacd ' +
  'lightblue:add8e6 lightcoral:f08080 lightcyan:e0ffff lightgoldenrodyellow:fafad2 ' +
  'lightgray:d3d3d3 lightgreen:90ee90 lightgrey:d3d3d3 lightpink:ffb6c1 lightsalmon:ffa07a ' +
  'lightseagreen:20b2aa lightskyblue:87cefa lightslategray:778899 lightslategrey:778899 ' +
  'lightsteelblue:b0c4de lightyellow:ffffe0 lime:00ff00 limegreen:32cd32 linen:faf0e6 ' +
  'magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa mediumblue:0000cd mediumorchid:ba55d3 ' +
  'mediumpurple:9370db mediumseagreen:3cb371 mediumslateblue:7b68ee mediumspringgreen:00fa9a ' +
  'mediumturquoise:48d1cc mediumvioletred:c71585 midnightblue:191970 mintcream:f5fffa ' +
  'mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead navy:000080 oldlace:fdf5e6 olive:808000 ' +
  'olivedrab:6b8e23 orange:ffa500 orangered:ff4500 orchid:da70d6 palegoldenrod:eee8aa ' +
  'palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093 papayawhip:ffefd5 peachpuff:ffdab9 ' +
  'peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6 purple:800080 rebeccapurple:663399 ' +
  'red:ff0000 rosybrown:bc8f8f royalblue:4169e1 saddlebrown:8b4513 salmon:fa8072 ' +
  'sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee sienna:a0522d silver:c0c0c0 skyblue:87ceeb ' +
  'slateblue:6a5acd slategray:708090 slategrey:708090 snow:fffafa springgreen:00ff7f ' +
  'steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8 tomato:ff6347 turquoise:40e0d0 ' +
  'violet:ee82ee wheat:f5deb3 white:ffffff whitesmoke:f5f5f5 yellow:ffff00 yellowgreen:9acd32';

function hexToRgba(hex: string): RGBA {
  const value = Number.parseInt(hex, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255, 255];
}

const named = new Map<string, RGBA>();
for (const entry of CSS_HEX.split(' ')) {
  const [name, hex] = entry.split(':');
  if (name !== undefined && hex !== undefined) named.set(name, hexToRgba(hex));
}

/**
 * Indexed colors `c0`..`c127`. The language notes fix only the first five (c0 black, c1 white,
 * c2 red, c3 lime, c4 blue); this runtime continues with yellow, cyan, magenta and then the CSS
 * names in table order (documented in docs/kidlisp-runtime.md).
 */
const indexed: RGBA[] = (() => {
  const first = ['black', 'white', 'red', 'lime', 'blue', 'yellow', 'cyan', 'magenta'];
  const rest = [...named.keys()].filter((name) => !first.includes(name));
  return [...first, ...rest].slice(0, 128).map((name) => named.get(name) ?? [0, 0, 0, 255]);
})();

const INDEXED = /^c(\d{1,3})$/;

/** A solid color word (`red`, `c12`), or undefined. Pattern words (`rainbow`) are not solid. */
export function solidColor(word: string): RGBA | undefined {
  const css = named.get(word);
  if (css !== undefined) return css;
  const match = INDEXED.exec(word);
  if (match !== null) return indexed[Number(match[1])];
  return undefined;
}

export const RAINBOW: readonly RGBA[] = [
  [255, 0, 0, 255],
  [255, 127, 0, 255],
  [255, 255, 0, 255],
  [0, 255, 0, 255],
  [0, 0, 255, 255],
  [75, 0, 130, 255],
  [148, 0, 211, 255],
];

export const ZEBRA: readonly RGBA[] = [
  [0, 0, 0, 255],
  [255, 255, 255, 255],
];

export type Pattern = 'rainbow' | 'zebra';

export function patternOf(word: string): Pattern | undefined {
  if (word === 'rainbow' || word === 'p0') return 'rainbow';
  if (word === 'zebra' || word === 'p1') return 'zebra';
  return undefined;
}

/** One stop of a fade: a fixed color or a pattern that advances each time the fade is painted. */
export type FadeStop = RGBA | Pattern;

export interface FadeSpec {
  stops: FadeStop[];
  /**
   * Degrees as the reference reads a number: counter-clockwise on screen, so 0 runs left to
   * right, 90 bottom to top and 270 top to bottom (docs/kidlisp-runtime.md, "Colors").
   */
  angle: number;
  /** A direction written as a word or expression (`frame`, `frame*2`), evaluated when painted. */
  angleExpression?: string;
  /** Colors the fade names that no table knows. */
  unknown: string[];
}

/** Named directions in the same counter-clockwise degrees: `vertical` runs top to bottom. */
const DIRECTIONS: ReadonlyMap<string, number> = new Map([
  ['horizontal', 0],
  ['horizontal-reverse', 180],
  ['vertical', 270],
  ['vertical-reverse', 90],
  ['diagonal', 315],
  ['diagonal-reverse', 135],
]);

/** Reads `fade:<c1>-<c2>[-...][:direction][:neat|:dirty]`; undefined when it is not a fade word. */
export function parseFade(word: string): FadeSpec | undefined {
  if (!word.startsWith('fade:')) return undefined;
  const segments = word
    .slice(5)
    .split(':')
    .filter((segment) => segment !== 'neat' && segment !== 'dirty');
  const [colorSegment = '', direction] = segments;
  const stops: FadeStop[] = [];
  const unknown: string[] = [];
  for (const name of colorSegment.split('-')) {
    if (name === '') continue;
    const pattern = patternOf(name);
    const solid = pattern === undefined ? solidColor(name) : undefined;
    if (pattern !== undefined) stops.push(pattern);
    else if (solid !== undefined) stops.push(solid);
    else unknown.push(name);
  }
  const spec: FadeSpec = { stops, angle: 0, unknown };
  if (direction !== undefined && direction !== '') {
    const named = DIRECTIONS.get(direction);
    const number = Number(direction);
    if (named !== undefined) spec.angle = named;
    else if (Number.isFinite(number)) spec.angle = number;
    else spec.angleExpression = direction;
  }
  return spec;
}

/**
 * A fade word whose direction is an expression, split into the fade without it and the
 * expression: `fade:red-blue:frame*2:neat` is `fade:red-blue:` and `frame*2` (`:neat` and
 * `:dirty` paint alike, so they are dropped). Undefined for a named, numeric or absent direction.
 */
export function splitFadeExpression(word: string): { colors: string; angle: string } | undefined {
  const angle = parseFade(word)?.angleExpression;
  if (angle === undefined) return undefined;
  const colors = word
    .slice(5)
    .split(':')
    .find((segment) => segment !== 'neat' && segment !== 'dirty');
  return { colors: `fade:${colors ?? ''}:`, angle };
}
