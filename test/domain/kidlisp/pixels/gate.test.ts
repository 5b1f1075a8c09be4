/**
 * The reference's pixel gate in-process (the CLI test runs it through `kidlisp render --sha256`)
 * and this runtime's own goldens for every word it draws.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { drawingCorpus } from './corpus.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');
const hashes = (spec: Parameters<typeof renderFrames>[0]) =>
  renderFrames(spec).frames.map((f) => sha(f.rgba));

// whistlegraph/aesthetic-computer kidlisp/conformance/ at 7d012e4c4b3d6bde52111ab4230e5686125f9ddb
const golden = JSON.parse(readFileSync(here('reference/golden-hashes.json'), 'utf8')) as {
  fixtures: Record<string, string[]>;
};

describe('the reference pixel gate', () => {
  it.each(Object.keys(golden.fixtures))('%s: every frame has its golden hash', (name) => {
    const fixture = JSON.parse(readFileSync(here(`reference/${name}`), 'utf8'));
    expect(hashes(fixture)).toEqual(golden.fixtures[name]);
  });
});

describe("this runtime's goldens for every word it draws", () => {
  const own = JSON.parse(readFileSync(here('corpus-golden.json'), 'utf8')) as {
    hashes: Record<string, string[]>;
  };
  it.each(drawingCorpus)('$name', ({ name, source }) => {
    const { report } = renderFrames({ source, width: 64, height: 64, frames: 1, seed: 7 });
    expect([...report.unsupported, ...report.unknown, ...report.problems]).toEqual([]);
    expect(hashes({ source, width: 64, height: 64, frames: 3, seed: 7 })).toEqual(own.hashes[name]);
  });
});
