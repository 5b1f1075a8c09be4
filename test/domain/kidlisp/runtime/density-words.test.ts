/**
 * `auto-density` and `scale` answer as the newest reference's do (its global environment in
 * kidlisp.mjs of whistlegraph/aesthetic-computer); the density itself stays 1 here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { run } from './helpers.js';

const RED = [255, 0, 0, 255];
const BLUE = [0, 0, 255, 255];

/** Draws red at (0, 0) when `condition` answers yes, blue when no. */
const answer = (setup: string, condition: string) =>
  run(
    `(wipe black) ${setup} (if ${condition} (ink red) (box 0 0 4 4)) (not ${condition} (ink blue) (box 0 0 4 4))`,
  ).surface.pixel(0, 0);

describe('auto-density and scale', () => {
  it.each([
    ['(auto-density)', RED],
    ['(auto-density on)', RED],
    ['(auto-density off)', BLUE],
    ['(auto-density 30 55)', RED],
    ['(scale)', RED],
    ['(scale off)', BLUE],
  ])('%s answers as the reference', (call, color) => {
    expect(answer('', call)).toEqual(color);
  });

  it('status and an unreadable argument answer the setting', () => {
    expect(answer('(auto-density on)', '(auto-density status)')).toEqual(RED);
    expect(answer('(auto-density off)', '(scale status)')).toEqual(BLUE);
    expect(answer('', '(auto-density "maybe")')).toEqual(BLUE);
  });

  it('is not named as not drawn, and leaves the picture as it is (the density stays 1)', () => {
    const source = '(wipe navy) (ink yellow) (circle 32 32 20)';
    const plain = renderFrames({ source, width: 64, height: 64, frames: 2 });
    const dense = renderFrames({
      source: `(auto-density 30 55) ${source}`,
      width: 64,
      height: 64,
      frames: 2,
    });
    expect(dense.report.unsupported).toEqual([]);
    const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');
    expect(dense.frames.map((f) => sha(f.rgba))).toEqual(plain.frames.map((f) => sha(f.rgba)));
  });
});
