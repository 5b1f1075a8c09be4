import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const bundle = async (entry: string) => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles?.[0]?.text ?? '';
};

describe('the piece bundles', () => {
  it.each([
    'src/pages/client/piece-host.ts',
    'src/pages/client/piece-sandbox.ts',
  ])('%s runs under a strict policy: no eval, no new Function, no Node modules', async (entry) => {
    const code = await bundle(entry);
    expect(code.length).toBeGreaterThan(500);
    expect(code).not.toMatch(/\beval\s*\(|new\s+Function\b|\bFunction\s*\(/);
    expect(code).not.toMatch(/\brequire\s*\(|node:/);
  });

  it('the page never loads the piece itself: only the sandbox makes a Worker or imports a module', async () => {
    const host = await bundle('src/pages/client/piece-host.ts');
    expect(host).not.toMatch(/new Worker|import\(|createObjectURL/);
    const sandbox = await bundle('src/pages/client/piece-sandbox.ts');
    expect(sandbox).toMatch(/new Worker/);
    expect(sandbox).not.toMatch(/\bfetch\(|XMLHttpRequest|WebSocket/);
  });
});
