/**
 * Frame time of the KidLisp runtime in a browser page (Debian's Chromium, headless, software
 * canvas) at 256x256: each program drawn on a <canvas> inside requestAnimationFrame callbacks,
 * beside the same animation loop with an empty callback in the same page. Programs: as
 * bench/kidlisp-frames.ts (bench/kidlisp-programs.ts).
 *
 *   npx tsx bench/kidlisp-browser.ts [frames]     (default 240 frames after 30 warm-up)
 *
 * Also part of `npm run bench` (bench/run.ts), which skips it when Chromium is missing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { BrowserFigures } from './browser/kidlisp-frame-client.js';
import { benchEmbeds, benchPrograms } from './kidlisp-programs.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIZE = 256;
const BUDGET_MS = 8;

export interface BrowserFrameRow {
  title: string;
  figures: BrowserFigures;
}

/** The client bundle, built from the TypeScript source wherever this file runs from (src or dist). */
async function clientBundle(): Promise<string> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  // Built, this file is dist/bench/; the client's source stays in bench/browser/.
  const root = here.includes(`${join('dist', 'bench')}`)
    ? join(here, '..', '..')
    : join(here, '..');
  const result = await build({
    entryPoints: [join(root, 'bench', 'browser', 'kidlisp-frame-client.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
  });
  return result.outputFiles[0]?.text ?? '';
}

export const chromiumAvailable = () => existsSync(CHROMIUM);

export async function benchKidlispInBrowser(frames = 240, warmUp = 30): Promise<BrowserFrameRow[]> {
  const script = await clientBundle();
  const userDataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await context.newPage();
    await page.setContent('<!doctype html><body></body>');
    await page.addScriptTag({ content: script });
    const options = { size: SIZE, warmUp, frames, embeds: benchEmbeds };
    const run = (source: string | null) =>
      page.evaluate(([source, options]) => window.kidlispBench.run(source, options), [
        source,
        options,
      ] as const);
    const rows: BrowserFrameRow[] = [
      { title: 'Baseline: empty animation loop', figures: await run(null) },
      { title: 'Baseline: empty program', figures: await run('') },
    ];
    for (const program of benchPrograms)
      rows.push({ title: program.title, figures: await run(program.source) });
    return rows;
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => value.toFixed(3);

export function browserFramesTable(rows: BrowserFrameRow[], frames: number): string {
  return [
    `KidLisp in Chromium (headless, software canvas), ${SIZE}x${SIZE}, ${frames} animation frames a program; time inside the frame callback`,
    '',
    `| program | mean ms | p50 ms | p95 ms | max ms | frame interval ms | mean < ${BUDGET_MS} ms | p95 < ${BUDGET_MS} ms |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ title, figures: f }) =>
        `| ${title} | ${ms(f.mean)} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.max)} | ${ms(f.interval)} | ${f.mean < BUDGET_MS ? 'yes' : 'NO'} | ${f.p95 < BUDGET_MS ? 'yes' : 'NO'}${f.notes.length ? ` (${f.notes.join('; ')})` : ''} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const frames = Math.max(10, Number(process.argv[2]) || 240);
  const rows = await benchKidlispInBrowser(frames);
  console.log(
    `${browserFramesTable(rows, frames)}\n\nload average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
}
