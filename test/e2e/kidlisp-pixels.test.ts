/**
 * The player in Chromium draws the same bytes as Node's renderer for the same program, seed and
 * clock: the runtime owns its pixels and the browser only puts them on the canvas.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFrames } from '../../src/domain/kidlisp/render/frames.js';
import { effectsCorpus } from '../domain/kidlisp/effects/corpus.js';
import { drawingCorpus } from '../domain/kidlisp/pixels/corpus.js';
import { pixelWordsCorpus } from '../domain/kidlisp/pixels/pixel-words-corpus.js';
import {
  type Browser,
  INSTALL_TIMEOUT_MS,
  launchBrowser,
  screenshotPath,
} from './support/browser.js';
import { buildClientBundles } from './support/client-bundles.js';

const ORIGIN = 'http://kidlisp.test';
const BUNDLE = fileURLToPath(new URL('../../dist/public/kidlisp-player.js', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../domain/kidlisp/pixels/reference/', import.meta.url));

let browser: Browser;

beforeAll(async () => {
  buildClientBundles();
  browser = await launchBrowser();
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

const sha = (bytes: Uint8Array | Uint8ClampedArray) =>
  createHash('sha256').update(bytes).digest('hex');

interface Program {
  name: string;
  source: string;
  width: number;
  height: number;
  frames: number;
  seed: number;
  /** `$code` sources the page's embed loader is answered with (GET /api/store-kidlisp?code=). */
  embeds?: Record<string, string | null>;
}

/** The page convention of docs/kidlisp-runtime.md with a fixed seed, clock step and frame count. */
function pageFor(program: Program): string {
  const data = JSON.stringify({ source: program.source }).replaceAll('<', '\\u003c');
  return `<!doctype html><html><body style="margin:0">
<canvas data-kidlisp="program" data-kidlisp-seed="${program.seed}" data-kidlisp-step-ms="${1000 / 60}"
  data-kidlisp-frames="${program.frames}" width="${program.width}" height="${program.height}"
  style="width:${program.width * 4}px;height:${program.height * 4}px"></canvas>
<script type="application/json" id="program">${data}</script>
<div data-kidlisp-notice="program" hidden></div>
<script src="/kidlisp-player.js"></script></body></html>`;
}

/** SHA-256 of the canvas's RGBA bytes once the player has drawn all its frames. */
async function browserHash(program: Program): Promise<string> {
  const page = await browser.newPage();
  const bundle = await readFile(BUNDLE);
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/kidlisp-player.js')
      return route.fulfill({ body: bundle, contentType: 'text/javascript' });
    if (url.pathname === '/api/store-kidlisp') {
      const source = program.embeds?.[url.searchParams.get('code') ?? ''];
      return typeof source === 'string'
        ? route.fulfill({ json: { source } })
        : route.fulfill({ status: 404, json: { code: 'ITEM_NOT_FOUND' } });
    }
    return route.fulfill({ body: pageFor(program), contentType: 'text/html' });
  });
  await page.goto(`${ORIGIN}/${program.name}`);
  const canvas = page.locator('canvas[data-kidlisp]');
  await expect
    .poll(() => canvas.getAttribute('data-kidlisp-drawn'), { timeout: 20_000 })
    .toBe(String(program.frames));
  const bytes = await page.evaluate(() => {
    const element = document.querySelector('canvas') as HTMLCanvasElement;
    const data = element.getContext('2d')?.getImageData(0, 0, element.width, element.height).data;
    return Array.from(data ?? []);
  });
  await page.screenshot({ path: screenshotPath(`kidlisp-pixels-${program.name}`) });
  expect(page.problems).toEqual([]);
  await page.close();
  return sha(Uint8Array.from(bytes));
}

function nodeHash(program: Program): string {
  const { frames } = renderFrames(program);
  const last = frames[frames.length - 1];
  if (last === undefined) throw new Error('no frame');
  return sha(last.rgba);
}

// Opaque programs only: a canvas stores translucent pixels premultiplied, so reading them back
// can change their bytes whatever drew them.
const programs: Program[] = [...drawingCorpus, ...effectsCorpus, ...pixelWordsCorpus]
  .filter((program) => program.name !== 'erase')
  .map((program) => ({
    ...program,
    width: 64,
    height: 64,
    frames: 3,
    seed: 7,
  }));

describe('the player draws the same bytes in Chromium as the renderer in Node', () => {
  it.each(programs)('$name', async (program) => {
    expect(await browserHash(program)).toBe(nodeHash(program));
  });

  it.each([
    'primitives',
    'accumulation',
    'random',
  ])('the reference fixture %s, its last frame', async (name) => {
    const fixture = JSON.parse(await readFile(`${REFERENCE}${name}.json`, 'utf8')) as Program;
    const program = { ...fixture, name };
    expect(await browserHash(program)).toBe(nodeHash(program));
  });

  // The shape of the reference's most-viewed $pif: two works side by side, one embedding another.
  it('a program made of embeds (and an embed of an embed), from its first frame', async () => {
    const program: Program = {
      name: 'embeds',
      source: '(wipe navy)\n($pie 0 0 w/2 h)\n($febs w/2 0 w/2 h 200)',
      width: 64,
      height: 64,
      frames: 3,
      seed: 7,
      embeds: {
        pie: '(wipe yellow) (ink green) (line 0 h/2 w h/2) (scroll frame frame)',
        febs: 'fade:red-blue-black-red\n($inner 4 4 8 8)\n(scroll 1 -1)',
        inner: '(wipe lime)',
      },
    };
    expect(await browserHash(program)).toBe(nodeHash(program));
  });
});
