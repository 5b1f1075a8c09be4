/**
 * Works run where they are viewed (issue 16): KidLisp pages draw on a canvas, pieces run in a
 * sandboxed frame, tapes play. Pixels are read back from what the browser draws.
 */
import { describe, expect, it } from 'vitest';
import { httpFetch, postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';
import { canvasPixel, near, type RGBA, shownPixel } from './support/pixels.js';

const session = useAppAndBrowser({}, { bundles: true });

const NAVY: RGBA = [0, 0, 128, 255];
const RED: RGBA = [255, 0, 0, 255];

const cspViolations = (problems: string[]) =>
  problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem));

async function publish(path: string, body: unknown): Promise<string> {
  const response = await postJson(`${session.app.url}${path}`, body);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body?.code as string;
}

async function openKidlisp(source: string, prefix = '$') {
  const code = await publish('/api/store-kidlisp', { source });
  const page = await session.browser.newPage();
  expect((await page.goto(`${session.app.url}/${prefix}${code}`))?.status()).toBe(200);
  return { code, page };
}

describe('a KidLisp page draws its program', () => {
  it('(wipe navy) fills the canvas with navy, the source beside it', async () => {
    const { page } = await openKidlisp('(wipe navy)');
    await expect
      .poll(async () => near(await canvasPixel(page, 'canvas[data-kidlisp]', 128, 128), NAVY))
      .toBe(true);
    expect(await page.locator('#source').innerText()).toContain('(wipe navy)');
    expect(await page.locator('[data-kidlisp-notice]').isHidden()).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-navy'), fullPage: true });
    expect(cspViolations(page.problems)).toEqual([]);
  });

  it('(ink red) (box 0 0 20 20) is red at (10, 10) and not beyond the box', async () => {
    const { page } = await openKidlisp('(ink red) (box 0 0 20 20)', '');
    await expect
      .poll(async () => near(await canvasPixel(page, 'canvas[data-kidlisp]', 10, 10), RED))
      .toBe(true);
    expect(near(await canvasPixel(page, 'canvas[data-kidlisp]', 30, 30), RED)).toBe(false);
  });

  it('a timing program changes its pixels from one frame to a later one', async () => {
    const { page } = await openKidlisp('(wipe (0.2s... red blue))');
    const read = () => canvasPixel(page, 'canvas[data-kidlisp]', 5, 5);
    await expect.poll(async () => (await read())[3]).toBe(255);
    const first = await read();
    await expect.poll(async () => (await read()).join(',')).not.toBe(first.join(','));
    expect(
      [first, await read()].every((pixel) => near(pixel, RED) || near(pixel, [0, 0, 255, 255])),
    ).toBe(true);
  });

  it('a $code embed draws the embedded program, read through GET /api/store-kidlisp?code=', async () => {
    const embedded = await publish('/api/store-kidlisp', { source: '(wipe red)' });
    const read = await httpFetch(`${session.app.url}/api/store-kidlisp?code=${embedded}`, {
      headers: { accept: 'application/json' },
    });
    expect(read.status).toBe(200);
    const { page } = await openKidlisp(`(wipe navy)\n($${embedded} 0 0 128 128)`);
    const canvas = 'canvas[data-kidlisp]';
    await expect.poll(async () => near(await canvasPixel(page, canvas, 64, 64), RED)).toBe(true);
    expect(near(await canvasPixel(page, canvas, 200, 200), NAVY)).toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-embed'), fullPage: true });
  });

  it('names a form it does not draw in a visible notice and draws the rest', async () => {
    const { page } = await openKidlisp('(wipe navy)\n(cube 10 10)');
    const notice = page.locator('[data-kidlisp-notice]');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain('cube');
    await expect
      .poll(async () => near(await canvasPixel(page, 'canvas[data-kidlisp]', 128, 128), NAVY))
      .toBe(true);
    await page.screenshot({ path: screenshotPath('kidlisp-notice'), fullPage: true });
  });
});

async function openPiece(source: string) {
  const code = await publish('/api/store-piece', {
    name: `piece ${Date.now()} ${Math.random()}`,
    source,
  });
  const page = await session.browser.newPage();
  expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
  return {
    code,
    page,
    frame: page.locator('iframe[data-piece]'),
    notice: page.locator('[data-piece-notice]'),
  };
}

describe('a piece runs in a sandboxed frame', () => {
  it('paint draws a red box, in an opaque-origin frame with a policy of its own', async () => {
    const { page, frame } = await openPiece(
      'export function paint({ wipe, ink }) {\n  wipe(0);\n  ink(255, 0, 0).box(10, 10, 50, 50);\n}\n',
    );
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    await expect.poll(() => frame.getAttribute('data-state')).toBe('running');
    await expect.poll(async () => near(await shownPixel(frame, 30, 30), RED, 12)).toBe(true);
    expect(near(await shownPixel(frame, 100, 100), RED, 12)).toBe(false);
    await page.screenshot({ path: screenshotPath('piece-red-box'), fullPage: true });

    const sandbox = await fetch(`${session.app.url}/sandbox/piece`);
    const policy = sandbox.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain('sandbox allow-scripts');
    expect(cspViolations(page.problems)).toEqual([]);
  });

  it('names the calls it does not offer in the notice', async () => {
    const { notice } = await openPiece(
      'export function paint($) {\n  $.wipe(0);\n  $.num.randInt(5);\n  $.form();\n}\n',
    );
    await expect.poll(() => notice.isVisible()).toBe(true);
    await expect.poll(() => notice.innerText()).toContain('num.randInt');
    expect(await notice.innerText()).toContain('form');
  });

  it('a piece that loops forever is terminated, the notice says so, and the page still answers', async () => {
    const { page, frame, notice } = await openPiece(
      'export function paint({ wipe }) {\n  wipe(0);\n  for (;;) {}\n}\n',
    );
    await expect.poll(() => frame.getAttribute('data-state'), { timeout: 10_000 }).toBe('stopped');
    expect(await notice.innerText()).toMatch(/did not finish a frame .* terminated/);
    // The page's own thread answers, and so does the frame's document (only the Worker looped).
    expect(await page.evaluate(() => document.title)).toContain('piece');
    expect(await page.locator('h1').innerText()).toContain('piece');
    await page.screenshot({ path: screenshotPath('piece-stopped'), fullPage: true });
  });

  it('a piece that throws is stopped and the notice gives the error', async () => {
    const { frame, notice } = await openPiece(
      'export function boot() {\n  throw new Error("no boot today");\n}\n',
    );
    await expect.poll(() => frame.getAttribute('data-state')).toBe('failed');
    expect(await notice.innerText()).toContain('no boot today');
  });

  it("cannot read a cookie set on the service's origin, nor fetch from it", async () => {
    const probe = `probe-${Date.now().toString(36)}`;
    const requested: string[] = [];
    session.browser.context.on('request', (request) => {
      if (request.url().includes(probe)) requested.push(request.url());
    });
    await session.browser.context.addCookies([
      { name: 'secret', value: 's3cr3t-value', url: session.app.url },
    ]);
    const { frame, notice } = await openPiece(
      [
        'const found = [];',
        'try { found.push("cookie:" + document.cookie); } catch { found.push("no document"); }',
        `try { const r = await fetch(${JSON.stringify(`${session.app.url}/${probe}`)}, { credentials: "include" }); found.push("fetched " + r.status + " " + (await r.text()).slice(0, 40)); } catch (e) { found.push("fetch refused"); }`,
        `try { const r = await fetch("/${probe}"); found.push("fetched relative " + r.status); } catch (e) { found.push("relative fetch refused"); }`,
        'export function boot() { throw new Error("found: " + found.join("; ")); }',
      ].join('\n'),
    );
    await expect.poll(() => frame.getAttribute('data-state')).toBe('failed');
    const said = await notice.innerText();
    expect(said).toContain('found: no document; fetch refused; relative fetch refused');
    expect(said).not.toContain('s3cr3t-value');
    expect(requested).toEqual([]);
  });
});

describe('a tape page', () => {
  it('an mp4 tape plays in a video player', async () => {
    const slug = `2026/11/23/e2e-${Date.now()}.mp4`;
    // Not a real film: the player element and its source are what the page decides.
    await session.app.services.storage.put(slug, Buffer.alloc(64), 'video/mp4');
    const code = await publish('/api/track-media', { slug, ext: 'mp4' });
    const page = await session.browser.newPage();
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    const video = page.locator('video.tape');
    expect(await video.getAttribute('src')).toBe(`/${code}.mp4`);
    expect(await video.getAttribute('controls')).not.toBeNull();
    await page.screenshot({ path: screenshotPath('tape-mp4-page'), fullPage: true });
  });
});
