import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { createKidlispRuntime } from '../../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from '../runtime/pixel-surface.js';

const EFFECTS = ['shear', 'sharpen', 'suck', 'sort', 'flip', 'noise'];
/** Arguments a program may hand them: huge, negative, infinite and not-a-number ones included. */
const ARGUMENTS = [
  ...'0 1 -1 0.5 -0.3 2 7 255 -255 99999 1e308 -1e308 1e-300 w h w/2 -w frame ? x'.split(' '),
  ...'digitpain aesthetic sotce "sotce" "" red (* 1e308 10) (- 0 (* 1e308 10)) (/ 0 0) (/ 1 0)'.split(
    ' ',
  ),
  '(random -5 5)',
  '(wiggle 1e300)',
];

const call = fc
  .tuple(fc.constantFrom(...EFFECTS), fc.array(fc.constantFrom(...ARGUMENTS), { maxLength: 4 }))
  .map(([word, args]) => `(${[word, ...args].join(' ')})`);
const statement = fc.oneof(
  { weight: 6, arbitrary: call },
  { weight: 1, arbitrary: fc.constantFrom(...EFFECTS) },
  { weight: 1, arbitrary: call.map((c) => `(repeat 2 ${c})`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '(ink red) (box 2 2 6 6)',
      '(wipe navy)',
      '(ink 0 0 255 100) (circle 8 8 5)',
    ),
  },
);
const program = fc
  .array(statement, { minLength: 1, maxLength: 8 })
  .map((forms) => forms.join('\n'));

describe('the screen effects on every program the validator accepts', () => {
  it('never throw or fail inside, stay within the budget and are never named as not drawn', () => {
    fc.assert(
      fc.property(
        program.filter((source) => previewKidlisp(source).valid),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom(1, 3, 16, 33),
        (source, seed, size) => {
          const surface = new PixelSurface(size, size);
          const runtime = createKidlispRuntime(source, { surface, seed, stepLimit: 5_000 });
          for (let frame = 0; frame < 3; frame++) {
            const result = runtime.frame({ frame, ms: frame * 500 });
            expect(result.steps).toBeLessThanOrEqual(5_000 + 1_000);
          }
          const report = runtime.report();
          expect(report.problems.filter((p) => p.startsWith('A frame failed'))).toEqual([]);
          expect(report.unsupported.filter((word) => EFFECTS.includes(word))).toEqual([]);
          for (let i = 0; i < surface.data.length; i++) {
            expect(Number.isInteger(surface.data[i])).toBe(true);
          }
        },
      ),
      { numRuns: Number(process.env.KIDLISP_RUNS) || 300 },
    );
  });
});
