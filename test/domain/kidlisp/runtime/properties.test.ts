import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { createKidlispRuntime } from '../../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from './pixel-surface.js';

const WORDS = [
  ...'def now die later if not > < = once repeat rep bunch choose ? ... .. yes no delay hop log'.split(
    ' ',
  ),
  ...'wipe backdrop coat ink line box circle oval tri point plot shape write fill nofill outline'.split(
    ' ',
  ),
  ...'stroke nostroke fps scroll zoom spin smoothspin resetSpin blur contrast invert embed'.split(
    ' ',
  ),
  ...'+ - * / % mod min max sin cos random wiggle floor ceil round mul w h width height frame f'.split(
    ' ',
  ),
  ...'melody flood stamp paste tap draw amp mic bake sqrt abs scrl cube'.split(' '),
  ...'lift dx dy penx peny down bell pluck sub flute hat voice overtone amplitude speaker'.split(
    ' ',
  ),
  ...'c4 f#3 bb5 sine square "cdefg" cde a.aa.e 120'.split(' '),
  ...'red navy salmon c7 c127 p0 p1 rainbow zebra erase fade:red-blue fade:red-blorp'.split(' '),
  ...'fade:black-rainbow-zebra:frame*2 fade:red-blue:vertical fade:a-b:diagonal-reverse'.split(' '),
  ...'1s 0.5s 0s .25s 2s... 1s.. 0.5s! 5f 2*width 1e3 -5 .5 0 1 3 10 255 300 -1 99999'.split(' '),
  ...'x i my_var w/2 x-10 frame*3 i%4 a+b*2 -frame -w outline:3 fill*center center nil'.split(' '),
  ...'$abc $self $nope #dml "hi" \'q\' "fill" "outline:2" ""'.split(' '),
];

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }).map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map(String) },
);

const { form } = fc.letrec<{ form: string; list: string }>((tie) => ({
  form: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    tie('list'),
    // A fade whose direction is the list written right after it.
    tie('list').map((list) => `fade:red-rainbow:${list}`),
  ),
  // Lists mostly start with a word, as calls do, so that most forms reach a built-in.
  list: fc
    .tuple(
      fc.option(fc.constantFrom(...WORDS), { freq: 8 }),
      fc.array(tie('form'), { maxLength: 5 }),
    )
    .map(([head, items]) => `(${[...(head === null ? [] : [head]), ...items].join(' ')})`),
}));

// Some programs leave a few '(' open: the runtime closes them at the end, as the reference does.
const program = fc
  .tuple(
    fc.array(form, { minLength: 1, maxLength: 8 }),
    fc.constantFrom(' ', '\n', ', '),
    fc.nat({ max: 2 }),
  )
  .map(([forms, separator, open]) => '('.repeat(open) + forms.join(separator));

const EMBEDS: Record<string, string> = {
  abc: '(wipe red) (repeat 3 i (box i i 2 2)) (scroll 1)',
  self: '($self)',
};

describe('the runtime on every program the validator accepts', () => {
  it('never throws, never fails inside, and keeps each frame within its budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        program.filter((source) => previewKidlisp(source).valid),
        fc.integer({ min: 1, max: 1000 }),
        async (source, seed) => {
          const surface = new PixelSurface(16, 16);
          const runtime = createKidlispRuntime(source, {
            surface,
            seed,
            stepLimit: 5_000,
            loadEmbed: async (code) => EMBEDS[code] ?? null,
            createSurface: (width, height) => new PixelSurface(width, height),
          });
          for (let frame = 0; frame < 3; frame++) {
            const result = runtime.frame({ frame, ms: frame * 700 });
            // A step may overshoot by the cost of the form that crossed the line, never by much.
            expect(result.steps).toBeLessThanOrEqual(5_000 + 1_000);
            await runtime.idle();
          }
          const report = runtime.report();
          expect(report.problems.filter((p) => p.startsWith('A frame failed'))).toEqual([]);
          for (const entry of [...report.unsupported, ...report.unknown, ...report.problems]) {
            expect(typeof entry).toBe('string');
          }
          // Every built-in the notice names as not drawn, the validator listed beforehand
          // (entries with a space are notes such as "chaos mode (...)" or "$abc (...)").
          const words = report.unsupported.filter((entry) => !entry.includes(' '));
          expect(previewKidlisp(source).stats.not_drawn).toEqual(expect.arrayContaining(words));
        },
      ),
      { numRuns: Number(process.env.KIDLISP_RUNS) || 400 },
    );
  });

  it('never throws on arbitrary text either (invalid programs included)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (source) => {
        const runtime = createKidlispRuntime(source, { surface: new PixelSurface(8, 8) });
        expect(() => runtime.frame({ frame: 0, ms: 0 })).not.toThrow();
        expect(runtime.report().problems.filter((p) => p.startsWith('A frame failed'))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
