import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { run } from '../runtime/helpers.js';
import { BLACK, RED } from '../runtime/pixel-surface.js';

const YELLOW = [255, 255, 0, 255];
const WHITE = [255, 255, 255, 255];
const quiet = (source: string, options: Parameters<typeof run>[1] = {}) => {
  const result = run(source, options);
  const { unsupported, unknown, problems } = result.runtime.report();
  expect([...unsupported, ...unknown, ...problems]).toEqual([]);
  return result.surface;
};

describe('the screen effect words', () => {
  it('are drawn: the validator does not list them as not drawn', () => {
    const stats = previewKidlisp('(shear 1) (sharpen) (suck) (sort) (flip) (noise)').stats;
    expect(stats.not_drawn).toEqual([]);
  });

  it('shear leans rows by sx and columns by sy, about the middle; (shear) does nothing', () => {
    const sheared = quiet('(once (ink red) (box 0 0 1 64)) (shear 0.5)');
    // Row y moves right by round(0.5 * (y - 32)): row 0 by -16 (wrapping to x 48), row 40 by 4.
    expect(sheared.pixel(48, 0)).toEqual(RED);
    expect(sheared.pixel(4, 40)).toEqual(RED);
    expect(sheared.pixel(0, 40)).toEqual(BLACK);
    const down = quiet('(once (ink red) (box 0 0 64 1)) (shear 0 0.25)');
    expect(down.pixel(40, 2)).toEqual(RED); // column 40 moves down by round(0.25 * 8) = 2
    const still = quiet('(once (ink red) (box 0 0 1 64)) (shear)');
    expect(still.count(RED)).toBe(64);
    expect(still.pixel(0, 0)).toEqual(RED);
  });

  it('sharpen brightens the light side of an edge and darkens the dark side; default strength 1', () => {
    const surface = quiet('(wipe 100) (ink 150) (box 32 0 32 64) (sharpen)');
    // c * 5 - 4 neighbours: 150 * 5 - 3 * 150 - 100 = 200, 100 * 5 - 3 * 100 - 150 = 50.
    expect(surface.pixel(32, 10)).toEqual([200, 200, 200, 255]);
    expect(surface.pixel(31, 10)).toEqual([50, 50, 50, 255]);
    expect(surface.pixel(10, 10)).toEqual([100, 100, 100, 255]);
    expect(quiet('(wipe 100) (ink 150) (box 32 0 32 64) (sharpen 0)').pixel(32, 10)).toEqual([
      150, 150, 150, 255,
    ]);
  });

  it('suck gathers small strengths over frames and applies them from 0.5 on', () => {
    const program = '(once (ink white) (box 0 0 64 1)) (suck 0.3 0 32)';
    // Frame 1 gathers 0.3 (nothing moves); frame 2 reaches 0.6 and pulls every pixel in by 0.6,
    // so row 1 takes part of the white row above it.
    expect(quiet(program, { frames: 1 }).pixel(32, 1)).toEqual(BLACK);
    const [grey = 0] = quiet(program, { frames: 2 }).pixel(32, 1);
    expect(grey).toBeGreaterThan(50);
    expect(grey).toBeLessThan(200);
  });

  it('suck pulls the picture towards the center (or blows it out when negative)', () => {
    const pulled = quiet('(once (ink white) (box 40 30 4 4)) (suck 8)');
    expect(pulled.pixel(34, 32)).toEqual(WHITE); // the box's (42, 32), 8 pixels closer to (32, 32)
    expect(pulled.pixel(41, 31)).toEqual(BLACK);
    const blown = quiet('(once (ink white) (box 40 30 4 4)) (suck -8 32 32)');
    expect(blown.pixel(50, 31)).toEqual(WHITE);
  });

  it('sort puts the darkest pixels first, row by row', () => {
    const surface = quiet(
      '(wipe white) (ink black) (box 0 32 64 32) (ink red) (box 0 0 8 8) (sort)',
    );
    expect(surface.pixel(63, 31)).toEqual(BLACK);
    expect(surface.pixel(0, 32)).toEqual(RED);
    expect(surface.pixel(63, 32)).toEqual(RED);
    expect(surface.pixel(0, 33)).toEqual(WHITE);
  });

  it('flip turns the picture upside down', () => {
    const surface = quiet('(once (ink yellow) (box 0 0 64 4)) (flip)');
    expect(surface.pixel(5, 63)).toEqual(YELLOW);
    expect(surface.pixel(5, 0)).toEqual(BLACK);
    expect(quiet('(once (ink yellow) (box 0 0 64 4)) (flip)', { frames: 2 }).pixel(5, 0)).toEqual(
      YELLOW,
    );
  });

  it('noise fills the screen, its variant named by a word or a string', () => {
    const plain = quiet('(noise)');
    expect(plain.count(BLACK)).toBeLessThan(64 * 64);
    const digitpain = quiet('(noise digitpain)', { seed: 4 });
    const quoted = quiet('(noise "digitpain")', { seed: 4 });
    expect(Buffer.from(digitpain.data).equals(Buffer.from(quoted.data))).toBe(true);
    for (let i = 0; i < digitpain.data.length; i += 4)
      expect(digitpain.data[i + 1]).toBeLessThanOrEqual(38);
  });

  it('noise repeats with the seed and leaves the numbers of random and ? as they were', () => {
    const same = (a: Uint8ClampedArray, b: Uint8ClampedArray) =>
      Buffer.from(a).equals(Buffer.from(b));
    expect(same(quiet('(noise)', { seed: 2 }).data, quiet('(noise)', { seed: 2 }).data)).toBe(true);
    expect(same(quiet('(noise)', { seed: 2 }).data, quiet('(noise)', { seed: 3 }).data)).toBe(
      false,
    );
    const boxes = '(ink red) (box (random 60) (random 60) 4 4)';
    const alone = quiet(`(wipe black) ${boxes}`, { seed: 5 });
    const after = quiet(`(noise) (wipe black) ${boxes}`, { seed: 5 });
    expect(same(alone.data, after.data)).toBe(true);
  });
});
