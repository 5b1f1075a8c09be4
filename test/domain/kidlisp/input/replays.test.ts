import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderFrames } from '../../../../src/domain/kidlisp/render/frames.js';
import { inputReplays } from './replays.js';

const golden = JSON.parse(
  readFileSync(new URL('./replays-golden.json', import.meta.url), 'utf8'),
) as { hashes: Record<string, string[]> };

const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');

describe('input replays: pointer and key events drawn by the headless renderer', () => {
  it.each(
    inputReplays.map((spec) => [spec.name, spec] as const),
  )('%s draws every frame to its golden hash, with nothing in the notice', (name, spec) => {
    const { frames, report } = renderFrames(spec);
    expect(frames.map((frame) => sha(frame.rgba))).toEqual(golden.hashes[name]);
    expect(report).toEqual({ unsupported: [], unknown: [], problems: [] });
  });

  it('the same program without its events stays as it started (the events make the change)', () => {
    for (const spec of inputReplays) {
      const still = renderFrames({ ...spec, events: [] }).frames.map((frame) => sha(frame.rgba));
      expect(new Set(still).size, spec.name).toBe(1);
      expect(still, spec.name).not.toEqual(golden.hashes[spec.name]);
    }
  });
});
