/**
 * The pixel words (`flood`, `mask`/`unmask`, `pan`/`unpan`, `steal`/`putback`, `lines`, `poly`,
 * `pline`, `len`, `label`, `range`) on any program the validator accepts that uses them: never a
 * throw, never a failure inside the runtime, each frame within its budget, and a mask keeps
 * every pixel outside it as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { createKidlispRuntime } from '../../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from './pixel-surface.js';

const PIXEL_WORDS =
  'flood mask unmask pan unpan steal putback lines poly pline len label range resolution';
const OTHER_WORDS = 'wipe ink box line circle write scroll spin zoom blur invert repeat once';
const ARGUMENTS =
  '? 0 1 -1 3 8 15 16 17 -20 0.5 99999 -99999 1e9 w h frame red lime erase rainbow fade:red-blue "hi" "" yes no';

const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ARGUMENTS.split(' ')) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -1e4, max: 1e4 }).map(String) },
);

const { form } = fc.letrec<{ form: string }>((tie) => ({
  form: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    fc
      .tuple(
        fc.constantFrom(...PIXEL_WORDS.split(' '), ...OTHER_WORDS.split(' ')),
        fc.array(tie('form'), { maxLength: 6 }),
      )
      .map(([head, items]) => `(${[head, ...items].join(' ')})`),
    fc.array(word, { minLength: 1, maxLength: 4 }).map((items) => `(${items.join(' ')})`),
  ),
}));

const program = fc
  .array(form, { minLength: 1, maxLength: 8 })
  .map((forms) => `(wipe navy)\n${forms.join('\n')}`);

describe('the pixel words on every program the validator accepts', () => {
  it('never throw, never fail inside, and keep each frame within its budget', () => {
    fc.assert(
      fc.property(
        program.filter((source) => previewKidlisp(source).valid),
        fc.integer({ min: 1, max: 1000 }),
        (source, seed) => {
          const surface = new PixelSurface(16, 16);
          const runtime = createKidlispRuntime(source, { surface, seed, stepLimit: 5_000 });
          for (let frame = 0; frame < 3; frame++) {
            const result = runtime.frame({ frame, ms: frame * 700 });
            expect(result.steps).toBeLessThanOrEqual(5_000 + 1_000);
          }
          const { problems } = runtime.report();
          expect(problems.filter((p) => p.startsWith('A frame failed'))).toEqual([]);
        },
      ),
      { numRuns: Number(process.env.KIDLISP_RUNS) || 400 },
    );
  });

  it('a mask keeps every pixel outside it, whatever is drawn or transformed inside', () => {
    const inside = fc.array(form, { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.integer({ min: -4, max: 20 }),
        fc.integer({ min: -4, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        inside,
        (x, y, w, h, forms) => {
          // `unmask`, `mask`, `pan` and `resolution` inside would change what "outside" means: they are left out.
          const body = forms.join(' ').replace(/\((unmask|pan|mask|resolution)\b/g, '(len');
          const source = `(wipe navy) (ink red) (box 0 0 16 8) (mask ${x} ${y} ${w} ${h}) ${body}`;
          if (!previewKidlisp(source).valid) return;
          const surface = new PixelSurface(16, 16);
          const runtime = createKidlispRuntime(source, { surface, seed: 3, stepLimit: 50_000 });
          runtime.frame({ frame: 0, ms: 0 });
          const reference = new PixelSurface(16, 16);
          createKidlispRuntime('(wipe navy) (ink red) (box 0 0 16 8)', {
            surface: reference,
          }).frame({ frame: 0, ms: 0 });
          for (let py = 0; py < 16; py++) {
            for (let px = 0; px < 16; px++) {
              const masked = px >= x && px < x + w && py >= y && py < y + h;
              if (!masked) expect(surface.pixel(px, py)).toEqual(reference.pixel(px, py));
            }
          }
        },
      ),
      { numRuns: Number(process.env.KIDLISP_RUNS) || 300 },
    );
  });
});
