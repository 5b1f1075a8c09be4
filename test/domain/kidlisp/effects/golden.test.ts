/** This runtime's goldens for the screen effects (`corpus.ts`, `corpus-golden.json`). */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { effectsCorpus } from './corpus.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const golden = JSON.parse(readFileSync(here('corpus-golden.json'), 'utf8')) as {
  hashes: Record<string, string[]>;
};

describe("this runtime's goldens for the screen effects", () => {
  it.each(effectsCorpus)('$name', ({ name, source }) => {
    const { frames, report } = renderFrames({ source, width: 64, height: 64, frames: 3, seed: 7 });
    expect([...report.unsupported, ...report.unknown, ...report.problems]).toEqual([]);
    const hashes = frames.map((f) => createHash('sha256').update(f.rgba).digest('hex'));
    expect(hashes).toEqual(golden.hashes[name]);
  });
});
