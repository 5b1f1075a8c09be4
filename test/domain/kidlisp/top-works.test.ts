import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';
import { createKidlispRuntime } from '../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from './runtime/pixel-surface.js';

// Sources of the reference deployment's most-viewed works, copied as they are from
// whistlegraph/aesthetic-computer kidlisp/conformance/top100.json (codes eel, weus, h6g, otoc).
const EEL =
  '(beige)\n(ink (0.5s... gray black rainbow))\n(0.1s (write (? x X) width/2 height/2))\n(0.05s (scroll (? 18 -18) (? 32 -32))\n(blur 0.1)\n(1.25s (zoom (? 2 1.5 0.5)))';
const WEUS =
  'white\nmask 0 0 w/2 h, ink zebra 32\nbox ? ? ?\nunmask\nscroll 0 15\nink zebra 64, line\n(0.2s (blur 2))\n(0.5s (sharpen 1.05)';
const H6G = '(Butterfly';
const OTOC = '(once noise) (spin (0.5s... 1 -1)) (suck 1) (contrast 1.01)';

function runFrames(source: string, frames = 30) {
  const surface = new PixelSurface(32, 32);
  const runtime = createKidlispRuntime(source, { surface, seed: 3 });
  for (let frame = 0; frame < frames; frame++) runtime.frame({ frame, ms: (frame * 1000) / 60 });
  return { surface, report: runtime.report() };
}

describe('the most-viewed works whose last ) is missing', () => {
  it.each([
    ['eel', EEL, 4],
    ['weus', WEUS, 8],
    ['h6g', H6G, 1],
  ])('$%s is valid, with a warning at the ( left open, and runs', (_code, source, line) => {
    const preview = previewKidlisp(source);
    expect(preview).toMatchObject({ valid: true, errors: [] });
    expect(preview.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'warning', line, column: 1 }),
    );
    const { report } = runFrames(source);
    expect(report.problems).toEqual([
      `1 ')' missing (the first '(' left open is at line ${line}, column 1): closed at the end of the program, as the reference runtime does`,
    ]);
  });

  it('$eel draws its beige backdrop and writes over it', () => {
    const { surface } = runFrames(EEL);
    expect(surface.count([245, 245, 220, 255])).toBeGreaterThan(0);
    expect(surface.count([245, 245, 220, 255])).toBeLessThan(32 * 32);
  });
});

describe('most-viewed works that used words not drawn before: every word draws now', () => {
  it('$otoc: (once noise) and suck are drawn, so nothing is listed or named', () => {
    expect(previewKidlisp(OTOC).stats.not_drawn).toEqual([]);
    expect(runFrames(OTOC).report.unsupported).toEqual([]);
  });

  it('$weus: every word draws (its mask, unmask and sharpen)', () => {
    expect(previewKidlisp(WEUS).stats.not_drawn).toEqual([]);
    // sharpen is in a 0.5 s timer, so a second of frames reaches it.
    expect(runFrames(WEUS, 61).report.unsupported).toEqual([]);
  });
});
