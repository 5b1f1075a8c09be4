/**
 * The pixel words: `flood`, `mask`/`unmask`, `pan`/`unpan`, `steal`/`putback`, `lines`, `poly`,
 * `pline`, `len`, `label`, `range`. Rules from the reference's graphics library (graph.mjs) and
 * interpreter (kidlisp.mjs) in whistlegraph/aesthetic-computer; goldens from this runtime.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { createKidlispRuntime, type RGBA } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from '../runtime/helpers.js';
import { BLACK, NAVY, PixelSurface, RED, WHITE } from '../runtime/pixel-surface.js';
import { pixelWordsCorpus } from './pixel-words-corpus.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');
const YELLOW: RGBA = [255, 255, 0, 255];

/** The value a program's last statement leaves, written as the only text on a black screen. */
const written = (expression: string) => run(`(wipe black) (ink white) (write ${expression} 0 0)`);

describe('goldens for the pixel words', () => {
  const golden = JSON.parse(readFileSync(here('pixel-words-golden.json'), 'utf8')) as {
    hashes: Record<string, string[]>;
  };
  it.each(pixelWordsCorpus)('$name', ({ name, source }) => {
    const { frames, report } = renderFrames({ source, width: 64, height: 64, frames: 3, seed: 7 });
    expect([...report.unsupported, ...report.unknown, ...report.problems]).toEqual([]);
    expect(frames.map((frame) => sha(frame.rgba))).toEqual(golden.hashes[name]);
  });
});

describe('flood', () => {
  it('fills the area of one color around the point, stopping at other colors', () => {
    const { surface } = run(
      '(wipe white) (ink black) (box 10 10 20 20 outline) (flood 15 15 red) (flood 0 0 navy)',
    );
    expect(surface.pixel(15, 15)).toEqual(RED);
    expect(surface.pixel(10, 10)).toEqual(RED);
    expect(surface.count(RED)).toBe(20 * 20);
    expect(surface.pixel(9, 9)).toEqual(BLACK);
    expect(surface.count(NAVY)).toBe(64 * 64 - 22 * 22);
  });

  it('reaches neighbours up, down, left and right, never diagonally', () => {
    // A diagonal line of black splits the screen: the fill stays on its side.
    const { surface } = run('(wipe white) (ink black) (line 0 0 63 63) (flood 50 5 red)');
    expect(surface.pixel(50, 5)).toEqual(RED);
    expect(surface.pixel(5, 50)).toEqual(WHITE);
    expect(surface.count(RED)).toBe((64 * 63) / 2);
  });

  it('needs every channel to match, alpha included', () => {
    const { surface } = run('(wipe white) (ink 255 255 254) (box 0 0 32 64) (flood 40 5 red)');
    expect(surface.pixel(40, 5)).toEqual(RED);
    expect(surface.pixel(5, 5)).toEqual([255, 255, 254, 255]);
  });

  it('uses the ink without a color, blends a translucent one, and does nothing on a clear pixel', () => {
    const blended = run('(wipe black) (ink white 128) (flood 3 3)').surface;
    expect(blended.pixel(3, 3)).toEqual([128, 128, 128, 255]);
    const clear = run('(wipe 0 0 0 0) (ink red) (flood 3 3) (flood 3 3 lime)').surface;
    expect(clear.pixel(3, 3)).toEqual([0, 0, 0, 0]);
  });

  it('starts nowhere off screen, and floors a fractional start', () => {
    const off = run('(wipe white) (flood -1 5 red) (flood 64 5 red) (flood 5 99 red)').surface;
    expect(off.count(RED)).toBe(0);
    expect(run('(wipe white) (flood 63.9 0.5 red)').surface.count(RED)).toBe(64 * 64);
  });

  it('paints only inside a mask, and is not moved by pan', () => {
    const { surface } = run('(wipe white) (pan 10 10) (mask 0 0 16 64) (flood 40 40 red)');
    expect(surface.count(RED)).toBe(16 * 64);
    expect(surface.pixel(40, 40)).toEqual(WHITE);
  });
});

describe('mask and unmask', () => {
  it('clip every drawing word, wipe included, until unmask', () => {
    const { surface } = run(
      '(wipe white) (mask 8 8 16 16) (wipe navy) (ink red) (box 0 0 64 64) (line 0 30 63 30) (unmask) (ink red) (point 40 40)',
    );
    expect(surface.count(RED)).toBe(16 * 16 + 1);
    expect(surface.count(WHITE)).toBe(64 * 64 - 16 * 16 - 1);
    expect(surface.pixel(8, 8)).toEqual(RED);
    expect(surface.pixel(24, 24)).toEqual(WHITE);
  });

  it('keep pixels x <= px < x + w as the reference compares them (a fractional edge rounds up)', () => {
    const { surface } = run('(wipe white) (mask 2.5 0 3 1) (ink red) (box 0 0 64 64)');
    expect([2, 3, 4, 5, 6].map((x) => surface.pixel(x, 0)[1])).toEqual([255, 0, 0, 0, 255]);
    const empty =
      '(wipe white) (mask 5 5 0 9) (wipe red) (ink red) (box 0 0 64 64) (line 0 6 63 6)';
    expect(run(empty).surface.count(RED)).toBe(0);
  });

  it('last across frames until unmask, as the graphics library keeps its mask', () => {
    const { surface } = run('(wipe white) (once (mask 0 0 10 10)) (ink red) (box 0 0 64 64)', {
      frames: 2,
    });
    expect(surface.count(RED)).toBe(100);
  });

  it('keep a scroll inside the rectangle, wrapping at its edges', () => {
    const source =
      '(once (wipe navy) (ink white) (box 20 20 4 4))\n(mask 16 16 16 16) (scroll 10 0) (unmask)';
    const { surface } = run(source, { frames: 2 });
    // 20 + 2 * 10 = 40 wraps to 24 inside 16..31; nothing left the mask.
    expect(surface.pixel(24, 20)).toEqual(WHITE);
    expect(surface.pixel(27, 23)).toEqual(WHITE);
    expect(surface.count(WHITE)).toBe(16);
    const outside = run('(wipe navy) (ink white) (box 0 0 8 64) (mask 16 0 16 64) (scroll 5 0)');
    expect(outside.surface.count(WHITE)).toBe(8 * 64);
  });

  it('spin and zoom turn about the middle of the mask, or a center given on screen', () => {
    const source = (args: string) =>
      `(wipe black) (ink white) (box 40 40 2 2) (mask 32 32 16 16) (zoom 2 ${args})`;
    // About the mask's middle (40, 40) the dot at 40..41 stays; about (48, 48) it moves.
    expect(run(source('')).surface.pixel(40, 40)).toEqual(WHITE);
    expect(run(source('40 40')).surface.pixel(40, 40)).toEqual(WHITE);
    expect(run(source('48 48')).surface.pixel(40, 40)).toEqual(BLACK);
  });

  it('cost the mask rectangle in copies, the pixels outside never change', () => {
    const { surface } = run(
      '(wipe navy) (ink yellow) (box 0 0 64 8) (mask 0 8 64 56) (blur 3) (spin 5) (invert) (unmask)',
    );
    expect(surface.count(YELLOW)).toBe(64 * 8);
  });
});

describe('pan and unpan', () => {
  it('move shapes, lines, points and text by whole pixels, adding up until unpan', () => {
    const { surface } = run(
      '(wipe black) (pan 10.7 20) (ink red) (box 0 0 2 2) (pan 5) (point 0 0) (unpan) (point 1 1)',
    );
    expect(surface.pixel(10, 20)).toEqual(RED);
    expect(surface.pixel(11, 21)).toEqual(RED);
    expect(surface.pixel(15, 25)).toEqual(RED);
    expect(surface.pixel(1, 1)).toEqual(RED);
    expect(surface.count(RED)).toBe(6);
  });

  it('leave wipe alone and move the area pixel transforms work on under a mask', () => {
    const { surface } = run(
      '(wipe black) (ink white) (box 20 0 4 4) (pan 20 0) (mask 0 0 8 8) (invert) (wipe red)',
    );
    expect(surface.pixel(20, 0)).toEqual(BLACK); // inverted: the mask moved by the pan
    expect(surface.pixel(0, 0)).toEqual(RED); // wiped: the mask itself is not panned
    expect(surface.pixel(24, 0)).toEqual(WHITE);
  });
});

describe('steal and putback', () => {
  it('keep a rectangle and blend it back where it was or elsewhere', () => {
    const { surface } = run(
      '(wipe navy) (ink red) (box 0 0 4 4) (steal 0 0 4 4) (wipe navy) (putback) (putback 10 10)',
    );
    expect(surface.count(RED)).toBe(32);
    expect(surface.pixel(13, 13)).toEqual(RED);
  });

  it('do nothing when nothing was stolen, and keep pixels off the screen clear', () => {
    expect(run('(wipe navy) (putback 1 1)').surface.count(NAVY)).toBe(64 * 64);
    const { surface } = run('(wipe red) (steal -2 -2 4 4) (wipe navy) (putback 0 0)');
    expect(surface.count(RED)).toBe(4);
  });
});

describe('lines, poly and pline', () => {
  it('lines draws one line for every four numbers, written flat or as lists', () => {
    const { surface } = run('(wipe black) (ink red) (lines 0 0 9 0 0 2 9 2) (lines (0 4 9 4))');
    expect(surface.count(RED)).toBe(30);
  });

  it('poly joins the points in order; pline draws them as thick lines', () => {
    const poly = run('(wipe black) (ink red) (poly 0 0 9 0 9 9)').surface;
    expect(poly.count(RED)).toBe(19);
    expect(poly.pixel(0, 9)).toEqual(BLACK);
    const pline = run('(wipe black) (ink red) (pline 10 10 50 10 50 50 6)').surface;
    expect(pline.pixel(30, 12)).toEqual(RED);
    expect(pline.pixel(52, 30)).toEqual(RED);
    expect(pline.count(RED)).toBeGreaterThan(6 * 70);
  });
});

describe('resolution', () => {
  it('makes the program draw on a smaller screen, shown scaled to fill the canvas', () => {
    const { surface } = run(
      '(resolution 16 8) (wipe navy) (ink red) (box 0 0 1 1) (box (- w 1) (- h 1) 1 1)',
    );
    // 64 / 16 = 4 canvas pixels a column, 64 / 8 = 8 a row.
    expect(surface.count(RED)).toBe(2 * 4 * 8);
    expect(surface.pixel(3, 7)).toEqual(RED);
    expect(surface.pixel(4, 7)).toEqual(NAVY);
    expect(surface.pixel(60, 56)).toEqual(RED);
  });

  it('halves the size once however often it is called, and goes back with no size', () => {
    const half = run('(resolution half) (wipe navy) (ink red) (box 0 0 1 1)', { frames: 3 });
    expect(half.surface.count(RED)).toBe(4);
    const back = run('(resolution 8) (wipe navy) (resolution) (ink red) (box 0 0 1 1)');
    expect(back.surface.count(RED)).toBe(1);
  });

  it('hands the program pointer positions in its own pixels', () => {
    const surface = new PixelSurface(64, 64);
    const runtime = createKidlispRuntime(
      '(once (resolution 32) (wipe navy))\n(tap (ink red) (box penx peny 1 1))',
      { surface },
    );
    runtime.frame({ frame: 0, ms: 0 });
    runtime.pointer({ type: 'touch', x: 41, y: 21 });
    runtime.frame({ frame: 1, ms: 16 });
    expect(surface.count(RED)).toBe(4);
    expect(surface.pixel(40, 20)).toEqual(RED);
  });

  it('keeps the picture when the size changes, and a mask set before', () => {
    const { surface } = run('(wipe red) (mask 0 0 4 4) (resolution 32) (wipe navy)');
    expect(surface.count(NAVY)).toBe(8 * 8);
    expect(surface.count(RED)).toBe(64 * 64 - 64);
  });
});

describe('len, label and range', () => {
  it('len counts the characters a value is written with', () => {
    expect(run('(def n (len "hello")) (wipe (* n 10) 0 0)').surface.pixel(0, 0)).toEqual([
      50, 0, 0, 255,
    ]);
    expect(run('(wipe (* 10 (len 123.5)) 0 0)').surface.pixel(0, 0)).toEqual([50, 0, 0, 255]);
  });

  it('label gives its text back and draws nothing; range gives nothing', () => {
    expect(written('(label "ok")').surface.count(WHITE)).toBeGreaterThan(0);
    expect(written('(range 5 0 1)').surface.count(WHITE)).toBe(0);
    expect(run('(wipe navy) (label "title" red)').surface.count(NAVY)).toBe(64 * 64);
  });
});
