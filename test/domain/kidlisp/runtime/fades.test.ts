import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import type { RGBA } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from './helpers.js';
import type { PixelSurface } from './pixel-surface.js';

// Fade directions as the reference reads them (system/public/aesthetic.computer/lib/graph.mjs,
// calculateAngleFadePosition: the direction vector is (cos a, -sin a), so a number turns
// counter-clockwise on screen; `vertical` runs top to bottom).

const SIZE = 64;
const LAST = SIZE - 1;
const MID = SIZE / 2;

function isRed([r, g, b, a]: RGBA): boolean {
  return r > 200 && g < 10 && b < 55 && a === 255;
}

function isBlue([r, g, b, a]: RGBA): boolean {
  return b > 200 && g < 10 && r < 55 && a === 255;
}

/** Which edge of the screen holds the first color (red) of a red-to-blue fade. */
function redEdge(surface: PixelSurface): string {
  const edges = {
    left: surface.pixel(0, MID),
    right: surface.pixel(LAST, MID),
    top: surface.pixel(MID, 0),
    bottom: surface.pixel(MID, LAST),
  };
  const red = Object.entries(edges).filter(([, color]) => isRed(color));
  return red.map(([edge]) => edge).join(',');
}

/** Every pixel is opaque: the fade replaced the screen instead of fading in over it. */
function allOpaque(surface: PixelSurface): boolean {
  for (let i = 3; i < surface.data.length; i += 4) if (surface.data[i] !== 255) return false;
  return true;
}

describe('a fade whose direction is the list written right after it', () => {
  it('turns with the frame: (wipe fade:red-blue:(* frame 90)) starts left to right, then turns a quarter each frame', () => {
    const program = '(wipe fade:red-blue:(* frame 90))';
    expect(redEdge(run(program, { frames: 1 }).surface)).toBe('left');
    expect(redEdge(run(program, { frames: 2 }).surface)).toBe('bottom');
    expect(redEdge(run(program, { frames: 3 }).surface)).toBe('right');
    expect(redEdge(run(program, { frames: 4 }).surface)).toBe('top');
    for (const frames of [1, 2, 3, 4])
      expect(allOpaque(run(program, { frames }).surface)).toBe(true);
  });

  it('is not read as an alpha: the screen is the gradient, not a faint one over black', () => {
    const { surface } = run('(wipe fade:red-rainbow:(* frame 5))', { frames: 8 });
    expect(allOpaque(surface)).toBe(true);
    // The first color sits on one edge at full strength.
    expect([surface.pixel(0, MID), surface.pixel(LAST, MID)].some(isRed)).toBe(true);
  });

  it('evaluates the direction where the fade is used, so a loop variable turns each shape', () => {
    // i = 0: left to right; i = 1: 180 degrees, right to left, so the right half's right edge is red.
    const { surface } = run('(repeat 2 i (ink fade:red-blue:(* i 180)) (box (* i 32) 0 32 64))');
    expect(isRed(surface.pixel(0, MID))).toBe(true);
    expect(isRed(surface.pixel(LAST, MID))).toBe(true);
  });

  it('works in coat and ink as in wipe', () => {
    expect(redEdge(run('(coat fade:red-blue:(+ 90 0) 255)').surface)).toBe('bottom');
    expect(redEdge(run('(ink fade:red-blue:(- 0 90)) (box 0 0 w h)').surface)).toBe('top');
  });

  it('is a warning in the validator when a space separates them (the list would be an alpha)', () => {
    expect(previewKidlisp('(wipe fade:red-blue:(* frame 5))').warnings).toEqual([]);
    expect(previewKidlisp('(wipe fade:red-blue: (* frame 5))').warnings).toEqual([
      "Fade 'fade:red-blue:' at line 1, column 7 ends with ':' but no (expression) follows right after it, so it runs left to right; write the direction without a space, e.g. fade:red-blue:(* frame 5), or a word such as vertical or 45",
    ]);
  });
});

describe('fade directions turn as on the reference', () => {
  it.each([
    ['horizontal', 'left'],
    ['horizontal-reverse', 'right'],
    ['vertical', 'top'],
    ['vertical-reverse', 'bottom'],
    ['0', 'left'],
    ['90', 'bottom'],
    ['180', 'right'],
    ['270', 'top'],
    ['-90', 'top'],
  ])('fade:red-blue:%s puts red on the %s', (direction, edge) => {
    expect(redEdge(run(`(wipe fade:red-blue:${direction})`).surface)).toBe(edge);
  });

  it('diagonal runs from the top left corner to the bottom right', () => {
    const { surface } = run('(wipe fade:red-blue:diagonal)');
    expect(isRed(surface.pixel(0, 0))).toBe(true);
    expect(isBlue(surface.pixel(LAST, LAST))).toBe(true);
    const reverse = run('(wipe fade:red-blue:diagonal-reverse)').surface;
    expect(isBlue(reverse.pixel(0, 0))).toBe(true);
    expect(isRed(reverse.pixel(LAST, LAST))).toBe(true);
  });

  it('a direction word is evaluated each frame in degrees, counter-clockwise', () => {
    expect(redEdge(run('(wipe fade:red-blue:frame)', { frames: 91 }).surface)).toBe('bottom');
    expect(redEdge(run('(def a 270)\n(wipe fade:red-blue:a)').surface)).toBe('top');
    expect(redEdge(run('(wipe fade:red-blue:frame*2:neat)', { frames: 46 }).surface)).toBe(
      'bottom',
    );
  });

  it('a direction word is evaluated where the fade is used, with the loop variable', () => {
    const { surface } = run('(repeat 2 i (ink fade:red-blue:i*180) (box (* i 32) 0 32 64))');
    expect(isRed(surface.pixel(0, MID))).toBe(true);
    expect(isRed(surface.pixel(LAST, MID))).toBe(true);
  });

  it('a quoted fade keeps its direction word and evaluates it when it paints', () => {
    expect(redEdge(run('(wipe "fade:red-blue:frame")', { frames: 91 }).surface)).toBe('bottom');
  });
});
