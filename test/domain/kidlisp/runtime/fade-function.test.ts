/**
 * The `(fade ...)` function: it builds a fade word as the newest reference's `fade` does (its
 * global environment in kidlisp.mjs of whistlegraph/aesthetic-computer); golden from this runtime.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { run } from './helpers.js';

describe('(fade ...) builds a fade word', () => {
  /** The screen after writing `text` in white on black, 160 x 16. */
  const writing = (text: string) =>
    renderFrames({
      source: `(wipe black) (ink white) (write ${text} 0 0)`,
      width: 160,
      height: 16,
      frames: 1,
    }).frames[0]?.rgba;

  it.each([
    ['(fade red blue)', 'fade:red-blue'],
    ['(fade red lime blue)', 'fade:red-lime:\\"blue\\"'],
    ['(fade red blue vertical)', 'fade:red-blue:vertical'],
    ['(fade red blue 45)', 'fade:red-blue:45'],
    ['(fade red)', 'fade:red-blue'],
    ['(fade)', 'fade:red-blue'],
  ])('%s is %s', (expression, word) => {
    expect(writing(expression)).toEqual(writing(`"${word}"`));
    expect(writing(expression)).not.toEqual(writing('"fade:red-green"'));
  });

  it('paints red to blue left to right, and top to bottom when vertical', () => {
    const across = run('(wipe (fade red blue))').surface;
    expect(across.pixel(0, 30)).toEqual([255, 0, 0, 255]);
    expect(across.pixel(63, 30)).toEqual([4, 0, 251, 255]);
    const down = run('(wipe (fade red blue vertical))').surface;
    expect(down.pixel(30, 0)).toEqual([255, 0, 0, 255]);
    expect(down.pixel(30, 63)).toEqual([4, 0, 251, 255]);
  });

  it('takes an evaluated angle, and is no longer named as not drawn', () => {
    const { runtime, surface } = run('(def d 90) (wipe (fade red blue d))');
    expect(runtime.report().unsupported).toEqual([]);
    expect(surface.pixel(0, 0)).toEqual([0, 0, 255, 255]);
    expect(run('(wipe black) (fade red blue)').runtime.report().unsupported).toEqual([]);
  });

  it('golden: a fade made by the function, animated by the frame', () => {
    const { frames } = renderFrames({
      source:
        '(wipe (fade red yellow (* frame 30))) (ink (fade cyan navy vertical) 128) (box 8 8 48 48)',
      width: 64,
      height: 64,
      frames: 3,
    });
    expect(frames.map((frame) => createHash('sha256').update(frame.rgba).digest('hex'))).toEqual([
      'c4bf6fcc99d1756e9ffada1acd60eedba9e125c199081bb77e99ee3e17aea364',
      'eba10bd35f5023f7cdf99c7cba2299b23ee7c2c49ffc54e7cb31ff82ba35eecf',
      '993110950275e0d785dc3fb420fba29e0d26d28babb8a3dbd3ac5893f866d0a3',
    ]);
  });
});
