import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';

/** Warnings of a program that already sets its background. */
function warningsOf(body: string): string[] {
  return previewKidlisp(`(wipe black)\n${body}`).warnings;
}

describe('unknown words', () => {
  it('names an unknown head with its position, however deep', () => {
    expect(warningsOf('(repeat 3 (once (spni 5)))')).toEqual([
      "Unknown word 'spni' at line 2, column 18: not a built-in, color or defined name",
    ]);
  });

  it('knows def, later and loop names, and later parameters', () => {
    const source =
      '(def size 10)\n(later dot x y (box x y size size))\n(dot 1 2)\n(repeat 3 i (dot i i))';
    expect(warningsOf(source)).toEqual([]);
  });

  it('knows colors, host drawing names, $codes and #codes as heads', () => {
    expect(
      warningsOf(
        '(red)\n(plot 1 1)\n(poly 0 0 5 5 9 0)\n(pline 1 2 3 4)\n($pie 0 0 w h)\n(#e8j 10 10)\n(cube:0)',
      ),
    ).toEqual([]);
  });

  it('warns about a $code that is not 3 to 12 letters or digits', () => {
    expect(warningsOf('($ab 0 0)')).toEqual([
      "'$ab' at line 2, column 2 is not a valid $code: $ followed by 3 to 12 letters or digits",
    ]);
  });

  it('wraps bare lines, so an unknown first word on a line is a head', () => {
    expect(previewKidlisp('lisy\n\nlist').warnings).toEqual(
      [
        "Unknown word 'lisy' at line 1, column 1: not a built-in, color or defined name",
        "Unknown word 'list' at line 3, column 1: not a built-in, color or defined name",
        'No background at line 1, column 1: start with a color (black), a fade (fade:red-blue) or r g b, or call (wipe color)',
      ].sort(byLine),
    );
  });

  it('never reads words inside strings or comments as code', () => {
    expect(warningsOf('(write "scrl (abs 5) 2*w" 0 0) ; (scrl 5) (sqrt 2)')).toEqual([]);
  });
});

function byLine(a: string, b: string): number {
  const line = (text: string): number => Number(/line (\d+)/.exec(text)?.[1]);
  return line(a) - line(b);
}

describe('argument counts', () => {
  it.each([
    ['(coat)', "'coat' at line 2, column 2 needs at least 1 argument (coat color [alpha]), got 0"],
    [
      '(hop 1 red)',
      "'hop' at line 2, column 2 needs at least 3 arguments (hop seconds a b), got 2",
    ],
    [
      '(delay 2)',
      "'delay' at line 2, column 2 needs at least 2 arguments (delay seconds action), got 1",
    ],
    ['(> 1)', "'>' at line 2, column 2 needs at least 2 arguments (> a b body...), got 1"],
    ['(if)', "'if' at line 2, column 2 needs at least 1 argument (if condition body...), got 0"],
    ['(once)', "'once' at line 2, column 2 needs at least 1 argument (once expression...), got 0"],
    [
      '(mask 0 0 10)',
      "'mask' at line 2, column 2 needs at least 4 arguments (mask x y w h), got 3",
    ],
    [
      '(repeat 5)',
      "'repeat' at line 2, column 2 needs at least 2 arguments (repeat n [iterator] expression...), got 1",
    ],
    [
      '(now x 1 2)',
      "'now' at line 2, column 2 takes exactly 2 arguments (now name value), got 3; the runtime skips it",
    ],
    [
      '(range a 1)',
      "'range' at line 2, column 2 takes exactly 3 arguments (range iterable start end), got 2; the runtime skips it",
    ],
  ])('%s', (body, warning) => {
    expect(warningsOf(body)).toEqual([warning]);
  });

  it('accepts shapes without coordinates', () => {
    expect(warningsOf('(line)\n(box)\n(circle)\n(ink)')).toEqual([]);
  });

  it('asks later for a body in parentheses', () => {
    expect(warningsOf('(later shout x y)')).toEqual([
      "'later' at line 2, column 2 needs a body in parentheses (later name params... (body))",
    ]);
  });
});

describe('repeat limit', () => {
  it('allows exactly 10,000', () => {
    expect(warningsOf('(repeat 10000 (line))')).toEqual([]);
  });

  it.each(['rep', 'bunch'])('applies to %s', (name) => {
    expect(warningsOf(`(${name} 10001 i (line))`)).toEqual([
      `'${name}' at line 2, column 2 repeats 10001 times, over the limit of 10,000; the runtime skips it`,
    ]);
  });

  it('warns about a negative count', () => {
    expect(warningsOf('(repeat -1 (line))')).toEqual([
      "'repeat' at line 2, column 2 has a negative count -1; the runtime skips it",
    ]);
  });
});

describe('if has no else', () => {
  it('warns when several forms follow the condition', () => {
    expect(warningsOf('(if (> frame 10) (ink red) (ink blue))')).toEqual([
      "'if' at line 2, column 2 has 2 forms after its condition: all of them run when it is true (there is no else; use (not condition ...) for the other case)",
    ]);
  });

  it('is quiet with one body form', () => {
    expect(warningsOf('(if (> frame 10) (ink red))')).toEqual([]);
  });
});

describe('numbers and timing words', () => {
  it('warns that a digit-led word is cut to a number', () => {
    expect(warningsOf('(line 0 0 2*width h)')).toEqual([
      "'2*width' at line 2, column 11 reads as the number 2: a word that starts with a digit is cut short; put the name first (width*2) or use (* 2 width)",
    ]);
  });

  it('accepts clean numbers, timing words and infix words', () => {
    expect(
      warningsOf(
        '(line 10 -5 .5 1.25)\n(ink 1e2)\n(1s (zoom 1))\n(0.5s! (ink))\n(.25s... 1 2)\n(2s.. 1 2)\n(box w/2 x-10 frame*3 i%4)',
      ),
    ).toEqual([]);
  });

  it('warns about frame units, which do not exist', () => {
    expect(warningsOf('(5f (line))\n(ink (5f... red blue))')).toEqual([
      "'5f' at line 2, column 2 is not a timing word: there is no frame unit, so it reads as the number 5; use seconds (0.1s) or (n ...) to run every (n+1)th frame",
      "'5f...' at line 3, column 7 is not a timing word: there is no frame unit, so it reads as the number 5; use seconds (0.1s) or (n ...) to run every (n+1)th frame",
    ]);
  });

  it('accepts an integer head that runs every (n+1)th frame', () => {
    expect(warningsOf('(2 (line))')).toEqual([]);
  });
});

describe('colors and fades', () => {
  it('warns about an unknown color in a fade', () => {
    expect(warningsOf('(ink fade:red-bleu:vertical)')).toEqual([
      "Fade 'fade:red-bleu:vertical' at line 2, column 6 has 'bleu', which is not a known color",
    ]);
  });

  it('accepts fades with directions, indexed colors and patterns', () => {
    expect(
      warningsOf(
        '(ink fade:c2-rainbow-zebra:diagonal-reverse)\n(coat fade:navy-lightsteelblue:frame*2 64)\n(ink fade:red-blue:45:dirty)',
      ),
    ).toEqual([]);
  });

  it('asks a fade for two colors', () => {
    expect(warningsOf('(ink fade:red)')).toEqual([
      "Fade 'fade:red' at line 2, column 6 needs at least two colors (fade:red-blue)",
    ]);
  });

  it('warns that #rrggbb is a painting code, not a color', () => {
    expect(warningsOf('(ink #ff8800)')).toEqual([
      "'#ff8800' at line 2, column 6 is a painting code, not a color: KidLisp has no #rrggbb colors; use a color name or r g b numbers",
    ]);
  });
});

describe('names that do not exist', () => {
  it.each([
    ['(abs -5)', 'abs', 2, 'there is no abs'],
    ['(sqrt 4)', 'sqrt', 2, 'there is no sqrt'],
    ['(pow 2 3)', 'pow', 2, 'there is no pow; multiply with (* x x)'],
    ['(tan 1)', 'tan', 2, 'there is no tan; use sin and cos'],
    ['(* pi 2)', 'pi', 4, 'there is no pi; write 3.14159'],
    ['(>= frame 10)', '>=', 2, 'there is no >=; use > or ='],
    ['(<= frame 10)', '<=', 2, 'there is no <=; use < or ='],
  ])('%s', (body, name, column, hint) => {
    expect(warningsOf(body)).toEqual([
      `'${name}' at line 2, column ${column} does not exist in KidLisp: ${hint}`,
    ]);
  });

  it('still knows tan as a color argument', () => {
    expect(warningsOf('(ink tan)')).toEqual([]);
  });

  it('accepts a name the program defines itself', () => {
    expect(warningsOf('(def pi 3.14)\n(circle w/2 h/2 pi)')).toEqual([]);
  });
});

describe('one-line programs drawn as noise', () => {
  const chaos = (source: string): string =>
    `One line without parentheses or commas at line 1, column 1 is not run: it is drawn in chaos mode (a picture made from its letters) unless it is a single known word or color; write (${source})`;

  it.each(['wipe blue', 'kidlisp', 'line 0 0 100 100'])('warns for %j', (source) => {
    expect(previewKidlisp(source)).toMatchObject({ valid: true, warnings: [chaos(source)] });
  });

  it('warns for a long line without letters, and suggests known words (the reference counts it as chaos)', () => {
    expect(previewKidlisp('255 0 0 128').warnings).toEqual([
      'One line without parentheses or commas at line 1, column 1 is not run: it is drawn in chaos mode (a picture made from its letters) unless it is a single known word or color; write known words in parentheses, e.g. (wipe blue)',
    ]);
  });

  it('warns for a program that looks like random typing (few known words, many symbols)', () => {
    expect(previewKidlisp('(zq~ x7!)\n(@@ #k% jj)').warnings).toContain(
      'This source looks like random typing at line 1, column 1 (few known words, many symbols or unbalanced parentheses): it is drawn in chaos mode (a picture made from its letters), not run',
    );
  });

  it.each([
    'blue',
    'line',
    'c4',
    'fade:red-blue',
    '255 0 0',
    '$roz',
    'wipe, blue',
    '(wipe blue)',
    'wipe blue\nink red',
  ])('is quiet for %j', (source) => {
    expect(previewKidlisp(source).warnings.filter((warning) => warning.includes('chaos'))).toEqual(
      [],
    );
  });
});

describe('background', () => {
  it.each([
    'black\n(line)',
    '(beige)\n(line)',
    '255 0 0\n(line)',
    '255, 0, 0, line',
    'fade:red-blue\n(box)',
    '(ink red)\n(line)\n(wipe blue)',
    '(backdrop navy)\n(line)',
    'black, ink (? yellow black) 48, line, scroll 1',
    '; a comment first\nblack\n(line)',
  ])('is set by %j', (source) => {
    const preview = previewKidlisp(source);
    expect(preview.warnings).toEqual([]);
    expect(preview.stats.has_wipe).toBe(true);
  });

  it('is not set by a color inside a string or comment', () => {
    const preview = previewKidlisp('; black\n(write "wipe" 0 0)');
    expect(preview.warnings).toEqual([
      'No background at line 2, column 1: start with a color (black), a fade (fade:red-blue) or r g b, or call (wipe color)',
    ]);
    expect(preview.stats.has_wipe).toBe(false);
  });

  it('is not set by a color that is not first', () => {
    expect(previewKidlisp('(line)\nblack').stats.has_wipe).toBe(false);
  });
});

describe('comment-only source', () => {
  it('is valid but says nothing will run', () => {
    expect(previewKidlisp('  ; just a note\n; another')).toMatchObject({
      valid: true,
      errors: [],
      warnings: ['Source has only comments at line 1, column 3: nothing will run'],
    });
  });
});
