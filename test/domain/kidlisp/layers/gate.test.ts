/**
 * This runtime's goldens for the layer and painting words (`bake`, `burn`, `stamp`, `paste`,
 * `painting`, bare `#code`), recorded after looking at each fixture's picture.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { layerCorpus, PAINTINGS } from './corpus.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');

const golden = JSON.parse(readFileSync(here('corpus-golden.json'), 'utf8')) as {
  hashes: Record<string, string[]>;
};

/** Painting codes the fixtures name on purpose although no painting has them. */
const ABSENT: Record<string, string[]> = {
  'bare-code': ['#nope: no painting is published under this code; it is not drawn'],
  c4x: ['#e8j: no painting is published under this code; it is not drawn'],
};

describe('the layer and painting words: goldens', () => {
  it.each(layerCorpus)('$name', ({ name, source, size = 64 }) => {
    const spec = { source, width: size, height: size, frames: 4, seed: 7, paintings: PAINTINGS };
    const { frames, report } = renderFrames(spec);
    expect(report.unsupported).toEqual([]);
    expect(report.unknown).toEqual([]);
    expect(report.problems).toEqual(ABSENT[name] ?? []);
    expect(frames.map((frame) => sha(frame.rgba))).toEqual(golden.hashes[name]);
  });

  it('every fixture has a golden, and every golden a fixture', () => {
    expect(Object.keys(golden.hashes).sort()).toEqual(layerCorpus.map((f) => f.name).sort());
  });
});
