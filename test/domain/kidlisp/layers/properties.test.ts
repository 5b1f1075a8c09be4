import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import {
  createKidlispRuntime,
  type PixelBlock,
} from '../../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from '../runtime/pixel-surface.js';
import { testPainting } from './corpus.js';

const WORDS = [
  ...'bake burn stamp paste painting #abc #dml #nope #g painting'.split(' '),
  ...'wipe ink line box circle scroll zoom spin blur contrast invert once repeat erase red'.split(
    ' ',
  ),
  ...'w h frame ? -1 0 0.5 1 2 3 45 -90 1000 -1e6 1e9 https://x.y/a.png "s" @h/1 nil'.split(' '),
];

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map(String) },
);

const list = fc
  .tuple(fc.constantFrom(...WORDS), fc.array(word, { maxLength: 6 }))
  .map(([head, items]) => `(${[head, ...items].join(' ')})`);

const program = fc
  .array(fc.oneof(list, word), { minLength: 1, maxLength: 10 })
  .map((forms) => forms.join('\n'));

const PAINTINGS: Record<string, PixelBlock> = { abc: testPainting(5), dml: testPainting(12) };

describe('the layer and painting words on any program the validator accepts', () => {
  it('never throw, never fail inside the runtime, and keep each frame within its budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        program.filter((source) => previewKidlisp(source).valid),
        fc.boolean(),
        async (source, later) => {
          const surface = new PixelSurface(12, 12);
          const runtime = createKidlispRuntime(source, {
            surface,
            seed: 3,
            stepLimit: 20_000,
            createSurface: (width, height) => new PixelSurface(width, height),
            // Half the runs answer at once (headless), half a little later (the player).
            loadPainting: (code) =>
              later ? Promise.resolve(PAINTINGS[code] ?? null) : (PAINTINGS[code] ?? null),
          });
          for (let frame = 0; frame < 3; frame++) {
            const result = runtime.frame({ frame, ms: frame * 16 });
            expect(result.steps).toBeLessThanOrEqual(20_000 + 1);
            if (frame === 0) await runtime.idle();
          }
          const failures = runtime.report().problems.filter((p) => p.includes('failed inside'));
          expect(failures).toEqual([]);
          expect(surface.data.length).toBe(12 * 12 * 4);
        },
      ),
      { numRuns: 300 },
    );
  });
});
