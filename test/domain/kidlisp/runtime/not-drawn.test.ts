import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { describeReport } from '../../../../src/domain/kidlisp/runtime/index.js';
import { withReason } from '../../../../src/domain/kidlisp/runtime/meaningless-words.js';
import { run } from './helpers.js';
import { RED } from './pixel-surface.js';

/** What the viewer's notice names after two frames. */
function reportOf(source: string) {
  return run(source, { frames: 2 }).runtime.report();
}

describe('words the runtime does not draw are named, wherever they stand', () => {
  it.each([
    ['(wipe red) (once cube)'],
    ['(cube)'],
    ['(wipe red)\ncube'],
    ['wipe red, cube'],
    ['(wipe red)\n(repeat 2 cube)'],
    ['(wipe red) (if yes cube)'],
    ['(wipe red) (0s cube)'],
    ['(wipe red) (line cube 0 9 9)'],
  ])('%j names cube', (source) => {
    const report = reportOf(source);
    expect(report.unsupported).toEqual(['cube']);
    expect(describeReport(report)).toContain('Not drawn yet by this viewer: cube');
  });

  it('names an unknown bare word in statement position, with its hint', () => {
    expect(reportOf('(wipe red) (once foo) (repeat 2 sqrt)').unknown).toEqual([
      'foo',
      'sqrt (there is no sqrt)',
    ]);
  });

  it('stays quiet about names, colors, fades and values in statement position', () => {
    const report = reportOf(
      '(wipe red)\n(def x 5)\n(later f (line))\n(once x f red fade:red-blue w frame yes no)\n(repeat 2 i i)',
    );
    expect(report).toEqual({ unsupported: [], unknown: [], problems: [] });
  });

  it('names the same words the validator lists as not drawn', () => {
    const words =
      'noise melody flood paste stamp painting tape mask unmask steal putback bake burn resolution label len fade suck sharpen flip sort pan unpan range source cache jump perf tap draw lift amp mic penx clock cube left poly shear line box circle wipe ink zoom blur scroll spin fill outline'.split(
        ' ',
      );
    for (const word of words) {
      const source = `(wipe red)\n(once ${word})`;
      // An entry is the word, or the word and why it means nothing here: `tape (...)`.
      const inReport = reportOf(source).unsupported.includes(withReason(word));
      const inPreview = previewKidlisp(source).stats.not_drawn.includes(word);
      expect({ word, inReport }).toEqual({ word, inReport: inPreview });
    }
  });
});

describe('a ( left open', () => {
  it('is closed at the end of the program, which runs and says so in the notice', () => {
    const { surface, runtime } = run('(wipe blue)\n(ink red)\n(box 0 0 10 10');
    expect(surface.pixel(5, 5)).toEqual(RED);
    expect(runtime.report().problems).toEqual([
      "1 ')' missing (the first '(' left open is at line 3, column 1): closed at the end of the program, as the reference runtime does",
    ]);
  });

  it('reads what follows an unclosed ( inside it, as the reference does', () => {
    // (wipe blue (ink red) (box ...)): the arguments run first, then the wipe covers the box.
    const { surface, runtime } = run('(wipe blue\n(ink red)\n(box 0 0 10 10');
    expect(surface.count([0, 0, 255, 255])).toBe(64 * 64);
    expect(runtime.report().problems[0]).toMatch(
      /^2 '\)' missing \(the first '\(' left open is at line 1, column 1\)/,
    );
  });

  it('does not save a program with a stray ): it is not run, as on the reference', () => {
    const { surface, runtime } = run('(wipe red))\n(ink blue');
    expect(surface.count(RED)).toBe(0);
    expect(runtime.report().problems[0]).toMatch(/^Unmatched '\)' at line 1, column 11/);
  });
});
