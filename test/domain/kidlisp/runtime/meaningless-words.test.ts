import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { describeReport } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from './helpers.js';
import { RED } from './pixel-surface.js';

const TAPE = 'tape (tapes are recordings kept by aesthetic.computer; none are kept here)';
const FETCH = 'fetch (a viewer here does not fetch from other sites)';
const GET = 'get (it reads what fetch fetched, and a viewer here does not fetch)';

describe('words that mean nothing in a viewer here are named with the reason', () => {
  it('tape, as a call or bare, and the rest of the program draws', () => {
    for (const source of ['(wipe red) (tape abc)', '(wipe red)\ntape']) {
      const { runtime, surface } = run(source, { frames: 2 });
      expect(runtime.report().unsupported).toEqual([TAPE]);
      expect(describeReport(runtime.report())).toContain(`Not drawn yet by this viewer: ${TAPE}`);
      expect(surface.pixel(5, 5)).toEqual(RED);
    }
  });

  it('fetch and get, the network words', () => {
    const { runtime } = run(
      '(wipe red) (def data (fetch "https://example.com/a.json")) (write (get data "name") 0 0)',
    );
    expect(runtime.report().unsupported).toEqual([FETCH, GET]);
  });

  it('other words not drawn yet are named without a reason, and the validator lists the words alone', () => {
    expect(run('(wipe red) (cube)').runtime.report().unsupported).toEqual(['cube']);
    expect(previewKidlisp('(wipe red) (tape abc) (fetch "u")').stats.not_drawn).toEqual([
      'fetch',
      'tape',
    ]);
  });
});
