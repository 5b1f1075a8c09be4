import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the browser bundle of the player', () => {
  it('builds for the browser with no eval, no new Function and no Node modules', async () => {
    const result = await build({
      entryPoints: ['src/pages/client/kidlisp-player.ts'],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const code = result.outputFiles?.[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(1000);
    expect(code).not.toMatch(/\beval\s*\(|new\s+Function\b|\bFunction\s*\(/);
    expect(code).not.toMatch(/\brequire\s*\(|node:/);
    // Only the player, the runtime and the parts of the validator it reuses go in.
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    expect(inputs.every((input) => input.startsWith('src/'))).toBe(true);
    expect(inputs).toContain('src/domain/kidlisp/reader.ts');
  });
});
