/**
 * Chaos mode: a source the newest reference takes for random typing is drawn as a picture made
 * from its letters. Detection follows the reference's `isChaoticSource`, the pictures its
 * `evaluateChaos` (with `hueToRgb` and `drawChaosCircle`), both in kidlisp.mjs of
 * whistlegraph/aesthetic-computer; goldens from this runtime.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chaosScore, isChaoticSource } from '../../../../src/domain/kidlisp/chaos.js';
import { previewKidlisp } from '../../../../src/domain/kidlisp/index.js';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { chaosPicture } from '../../../../src/domain/kidlisp/runtime/chaos-art.js';
import { run } from '../runtime/helpers.js';
import { chaosCorpus } from './corpus.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');

describe('which sources are chaos (the reference isChaoticSource)', () => {
  it.each([
    'kidlisp',
    'chat',
    'prompt',
    'wipe blue',
    'line 0 0 100 100',
    '255 0 0 128',
    'x',
    '(((( foo',
    '(zq~ x7!)\n(@@ #k% jj)',
  ])('%j is chaos', (source) => {
    expect(isChaoticSource(source)).toBe(true);
  });

  it.each([
    'blue',
    'purple, ink, line, blur 5',
    '(wipe blue)',
    'wipe blue\nink red',
    'fade:red-blue',
    'c4',
    '255 0 0',
    '$bop',
    '(Butterfly)',
    'lisy\n\nlist',
    '',
    '; a comment only',
  ])('%j is not', (source) => {
    expect(isChaoticSource(source)).toBe(false);
  });

  it('adds up the reference scores: unknown words and many symbols make 0.6', () => {
    expect(chaosScore('(zq~ x7!)\n(@@ #k% jj)')).toBeCloseTo(0.6);
    expect(chaosScore('(wipe blue) (ink red) (box)')).toBe(0);
  });
});

describe('the pictures (the reference evaluateChaos)', () => {
  const golden = JSON.parse(readFileSync(here('chaos-golden.json'), 'utf8')) as {
    hashes: Record<string, string[]>;
  };

  it.each(chaosCorpus)('$name draws picture $picture', ({ name, source, picture }) => {
    expect(chaosPicture(source)).toBe(picture);
    const { frames, report } = renderFrames({
      source,
      width: 64,
      height: 64,
      frames: 3,
      seed: 7,
      stepMs: 1000,
    });
    expect(report).toEqual({ unsupported: [], unknown: [], problems: [] });
    expect(frames.map((frame) => sha(frame.rgba))).toEqual(golden.hashes[name]);
  });

  it('draws every picture whole on a large canvas (its work is bounded by the screen)', () => {
    for (const { source } of chaosCorpus) {
      const { report } = renderFrames({ source, width: 1024, height: 1024, frames: 1 });
      expect(report.problems, source).toEqual([]);
    }
  });

  it('draws the same picture whatever the seed (it is seeded by the text)', () => {
    const a = renderFrames({ source: 'banana', width: 32, height: 32, frames: 2, seed: 1 });
    const b = renderFrames({ source: 'banana', width: 32, height: 32, frames: 2, seed: 99 });
    expect(a.frames.map((f) => sha(f.rgba))).toEqual(b.frames.map((f) => sha(f.rgba)));
  });

  it('kidlisp: a 3 x 3 box a letter on black, its hue turning a degree a frame', () => {
    // 'k' (107) is the first letter: x = 107 % 64, y = 0, hue 107 * 37 % 360 = 359.
    const first = run('kidlisp').surface;
    expect(first.pixel(43, 0)).toEqual([255, 0, 4, 255]);
    expect(first.pixel(45, 2)).toEqual([255, 0, 4, 255]);
    expect(first.pixel(46, 3)).toEqual([0, 0, 0, 255]);
    expect(run('kidlisp', { frames: 2 }).surface.pixel(43, 0)).toEqual([255, 0, 0, 255]);
  });

  it('is what preview_kidlisp warns about, and the viewer names nothing', () => {
    expect(previewKidlisp('chat').warnings.join(' ')).toContain('chaos mode');
    expect(run('chat', { frames: 3 }).runtime.report()).toEqual({
      unsupported: [],
      unknown: [],
      problems: [],
    });
  });
});
