/** CSS named colors, as the reference runtime's color table knows them. */
const CSS_COLORS = [
  'aliceblue',
  'antiquewhite',
  'aqua',
  'aquamarine',
  'azure',
  'beige',
  'bisque',
  'black',
  'blanchedalmond',
  'blue',
  'blueviolet',
  'brown',
  'burlywood',
  'cadetblue',
  'chartreuse',
  'chocolate',
  'coral',
  'cornflowerblue',
  'cornsilk',
  'crimson',
  'cyan',
  'darkblue',
  'darkcyan',
  'darkgoldenrod',
  'darkgray',
  'darkgreen',
  'darkgrey',
  'darkkhaki',
  'darkmagenta',
  'darkolivegreen',
  'darkorange',
  'darkorchid',
  'darkred',
  'darksalmon',
  'darkseagreen',
  'darkslateblue',
  'darkslategray',
  'darkslategrey',
  'darkturquoise',
  'darkviolet',
  'deeppink',
  'deepskyblue',
  'dimgray',
  'dimgrey',
  'dodgerblue',
  'firebrick',
  'floralwhite',
  'forestgreen',
  'fuchsia',
  'gainsboro',
  'ghostwhite',
  'gold',
  'goldenrod',
  'gray',
  'green',
  'greenyellow',
  'grey',
  'honeydew',
  'hotpink',
  'indianred',
  'indigo',
  'ivory',
  'khaki',
  'lavender',
  'lavenderblush',
  'lawngreen',
  'lemonchiffon',
  'lightblue',
  'lightcoral',
  'lightcyan',
  'lightgoldenrodyellow',
  'lightgray',
  'lightgreen',
  'lightgrey',
  'lightpink',
  'lightsalmon',
  'lightseagreen',
  'lightskyblue',
  'lightslategray',
  'lightslategrey',
  'lightsteelblue',
  'lightyellow',
  'lime',
  'limegreen',
  'linen',
  'magenta',
  'maroon',
  'mediumaquamarine',
  'mediumblue',
  'mediumorchid',
  'mediumpurple',
  'mediumseagreen',
  'mediumslateblue',
  'mediumspringgreen',
  'mediumturquoise',
  'mediumvioletred',
  'midnightblue',
  'mintcream',
  'mistyrose',
  'moccasin',
  'navajowhite',
  'navy',
  'oldlace',
  'olive',
  'olivedrab',
  'orange',
  'orangered',
  'orchid',
  'palegoldenrod',
  'palegreen',
  'paleturquoise',
  'palevioletred',
  'papayawhip',
  'peachpuff',
  'peru',
  'pink',
  'plum',
  'powderblue',
  'purple',
  'rebeccapurple',
  'red',
  'rosybrown',
  'royalblue',
  'saddlebrown',
  'salmon',
  'sandybrown',
  'seagreen',
  'seashell',
  'sienna',
  'silver',
  'skyblue',
  'slateblue',
  'slategray',
  'slategrey',
  'snow',
  'springgreen',
  'steelblue',
  'tan',
  'teal',
  'thistle',
  'tomato',
  'turquoise',
  'violet',
  'wheat',
  'white',
  'whitesmoke',
  'yellow',
  'yellowgreen',
] as const;

const cssColors: ReadonlySet<string> = new Set(CSS_COLORS);

export function isCssColorName(word: string): boolean {
  return cssColors.has(word);
}
const patternColors: ReadonlySet<string> = new Set(['rainbow', 'zebra']);
const INDEXED_COLOR = /^c(?:\d|[1-9]\d|1[01]\d|12[0-7])$/;
const PALETTE_COLOR = /^p[01]$/;
const FADE_PREFIX = 'fade:';
const FADE_QUALITIES: ReadonlySet<string> = new Set(['neat', 'dirty']);

/** Named, indexed (`c0`..`c127`), palette (`p0`, `p1`) and pattern colors, plus `erase`. */
export function isColorWord(word: string): boolean {
  return (
    cssColors.has(word) ||
    patternColors.has(word) ||
    word === 'erase' ||
    INDEXED_COLOR.test(word) ||
    PALETTE_COLOR.test(word)
  );
}

function isFadeColor(word: string): boolean {
  return cssColors.has(word) || patternColors.has(word) || INDEXED_COLOR.test(word);
}

export function isFadeWord(word: string): boolean {
  return word.startsWith(FADE_PREFIX);
}

export interface FadeCheck {
  colors: string[];
  unknownColors: string[];
}

/** Reads `fade:<c1>-<c2>[-...][:direction][:neat|:dirty]`. */
export function checkFade(word: string): FadeCheck {
  const segments = word.slice(FADE_PREFIX.length).split(':');
  const colorSegment = segments.find((segment) => !FADE_QUALITIES.has(segment)) ?? '';
  const colors = colorSegment === '' ? [] : colorSegment.split('-');
  const unknownColors = colors.filter((color) => !isFadeColor(color));
  return { colors, unknownColors };
}

/** A fade the runtime accepts as a backdrop: at least two colors, all known. */
export function isValidFade(word: string): boolean {
  if (!isFadeWord(word)) return false;
  const { colors, unknownColors } = checkFade(word);
  return colors.length >= 2 && unknownColors.length === 0;
}
