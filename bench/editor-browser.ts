/**
 * The editor (/new) in Chromium (Debian's, headless, software canvas), against the real service on
 * the embedded database: the time from a keystroke to the preview's next frame (the first frame
 * the restarted player draws, data-kidlisp-drawn="1"), p50 and p95, for each bench program
 * (bench/kidlisp-programs.ts), measured two ways:
 *
 * - typing: a key that changes the text (a space at the end, then Backspace), so the preview
 *   restarts once the person pauses (RESTART_DELAY_MS of src/pages/client/kidlisp-editor.ts);
 * - Ctrl+Enter: runs at once.
 *
 * The baseline is the same measurement of a one-word program, `(wipe navy)`, interleaved with each
 * program's samples in the same page, so a busy machine slows both; the ratio is program /
 * baseline. Then the editor page's transfer: the document and every file it loads, as the
 * browser counted them, and the bundles' gzipped sizes.
 *
 *   npx tsx bench/editor-browser.ts [samples]     (default 15 a program and way)
 *
 * A benchmark, not a timed test: run it by hand (`npm run bench:editor`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { clientBundleDir } from '../src/http/html/public-dir.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';
import { benchPrograms } from './kidlisp-programs.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BASELINE = '(wipe navy)';

/** In the page: the time from each keydown to the first frame of the run it started. */
function installProbe(): void {
  const probe = { keyAt: -1, samples: [] as number[] };
  (window as unknown as { probe: typeof probe }).probe = probe;
  document.addEventListener(
    'keydown',
    () => {
      probe.keyAt = performance.now();
    },
    true,
  );
  const canvas = document.getElementById('preview') as HTMLCanvasElement;
  new MutationObserver(() => {
    if (canvas.dataset.kidlispDrawn === '1' && probe.keyAt >= 0) {
      probe.samples.push(performance.now() - probe.keyAt);
      probe.keyAt = -1;
    }
  }).observe(canvas, { attributes: true, attributeFilter: ['data-kidlisp-drawn'] });
}

const samplesTaken = (page: Page) =>
  page.evaluate(() => (window as unknown as { probe: { samples: number[] } }).probe.samples.length);

async function setSource(page: Page, source: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(source);
  await page.keyboard.press('ControlOrMeta+End');
}

/** One keystroke's sample: `key` pressed, then wait for the frame it leads to. */
async function sample(page: Page, key: string): Promise<void> {
  const before = await samplesTaken(page);
  await page.keyboard.press(key);
  await page.waitForFunction(
    (count) => (window as unknown as { probe: { samples: number[] } }).probe.samples.length > count,
    before,
    { timeout: 10_000 },
  );
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

interface Figures {
  p50: number;
  p95: number;
}

/** `samples` keystrokes of each way for `source`, each followed by one for the baseline. */
async function measure(page: Page, source: string, samples: number) {
  const taken = { typing: [[], []], run: [[], []] } as Record<'typing' | 'run', number[][]>;
  const read = () =>
    page.evaluate(
      () => (window as unknown as { probe: { samples: number[] } }).probe.samples.at(-1) as number,
    );
  for (let i = 0; i < samples; i++) {
    for (const [index, text] of [source, BASELINE].entries()) {
      await setSource(page, text);
      await page.waitForTimeout(400);
      await sample(page, i % 2 === 0 ? 'Space' : 'Backspace');
      taken.typing[index]?.push(await read());
      await sample(page, 'ControlOrMeta+Enter');
      taken.run[index]?.push(await read());
    }
  }
  const figures = (values: number[] = []): Figures => ({
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
  });
  return {
    typing: { program: figures(taken.typing[0]), baseline: figures(taken.typing[1]) },
    run: { program: figures(taken.run[0]), baseline: figures(taken.run[1]) },
  };
}

/** The editor page's transfer as the browser counted it: the document and each file it loaded. */
async function transfer(page: Page) {
  return page.evaluate(() =>
    [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ].map((entry) => {
      const timing = entry as PerformanceResourceTiming;
      return {
        name: new URL(timing.name).pathname,
        bytes: timing.transferSize,
        body: timing.encodedBodySize,
      };
    }),
  );
}

const ms = (value: number) => value.toFixed(0);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  const samples = Math.max(3, Number(process.argv[2]) || 15);
  execFileSync('npm', ['run', '--silent', 'build:client'], { stdio: 'ignore' });
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-editor-'));
  const service = await startService(
    loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    createLogger('silent'),
  );
  const userDataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const lines: string[] = [];
  try {
    const page = await context.newPage();
    await page.goto(`${service.url}/new`);
    await page.locator('.cm-content').waitFor();
    await page.waitForLoadState('networkidle');
    const files = await transfer(page);
    await page.evaluate(installProbe);
    lines.push(
      `Editor (/new) in Chromium (headless, software canvas), ${samples} keystrokes a program and way, each followed by one for the baseline \`${BASELINE}\` (interleaved, same page); ms from keydown to the restarted preview's first frame. $code embeds are not published here, so the embedding program is left out.`,
      '',
      '| program | typing p50 | typing p95 | baseline p95 | ratio p95 | Ctrl+Enter p50 | Ctrl+Enter p95 | baseline p95 | ratio p95 |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const program of benchPrograms) {
      if (program.source.includes('$')) continue;
      const { typing, run } = await measure(page, program.source, samples);
      lines.push(
        `| ${program.title} | ${ms(typing.program.p50)} | ${ms(typing.program.p95)} | ${ms(typing.baseline.p95)} | ${(typing.program.p95 / typing.baseline.p95).toFixed(2)} | ${ms(run.program.p50)} | ${ms(run.program.p95)} | ${ms(run.baseline.p95)} | ${(run.program.p95 / run.baseline.p95).toFixed(2)} |`,
      );
    }
    const total = files.reduce((sum, file) => sum + file.bytes, 0);
    lines.push(
      '',
      `Editor page transfer (first visit, no cache, the service sends no compression): ${kib(total)} KiB in ${files.length} responses: ${files
        .map((file) => `${file.name} ${kib(file.bytes)}`)
        .join(', ')}.`,
      '',
      '| bundle | bytes | gzipped bytes |',
      '|---|---|---|',
      ...['kidlisp-editor.js', 'clock-editor.js', 'kidlisp-player.js'].map((name) => {
        const bytes = readFileSync(join(clientBundleDir, name));
        return `| ${name} | ${bytes.length} | ${gzipSync(bytes, { level: 9 }).length} |`;
      }),
      '',
      `load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
}

await main();
