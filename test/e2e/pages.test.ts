import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../src/domain/kidlisp/index.js';
import { httpFetch, postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';
import { gradientPng } from './support/png.js';

const session = useAppAndBrowser();

const cspViolations = (problems: string[]) =>
  problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem));

async function publish(path: string, body: unknown): Promise<string> {
  const response = await postJson(`${session.app.url}${path}`, body);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body?.code as string;
}

describe('a KidLisp page', () => {
  const source =
    '(wipe navy)\n(ink yellow)\n; "</code><script>alert(1)</script>"\n(blur 1)\n(circle 128 128 64\n(box 10 10 30 30)';

  it('shows the source, escaped, with the validator\u2019s diagnostics', async () => {
    const code = await publish('/api/store-kidlisp', { source });
    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/${code}`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    // The player's pixel kernels (`blur` here) are WebAssembly: compiling it is allowed, `eval` is not.
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);

    await expect.poll(() => page.locator('#source').innerText()).toContain('(wipe navy)');
    expect(await page.locator('#source').innerText()).toContain('<script>alert(1)</script>');
    // The only scripts that run are files of this origin (the JSON data holder never runs).
    const scripts = await page
      .locator('script:not([type="application/json"])')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('src')));
    expect(scripts).toEqual(['/assets/kidlisp-player.js']);
    const expected = previewKidlisp(source.trim()).diagnostics;
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.diagnostics li').count()).toBe(expected.length);
    expect(await page.locator('.diagnostics').innerText()).toContain(
      `line ${expected[0]?.line}, column ${expected[0]?.column}`,
    );
    await page.screenshot({ path: screenshotPath('kidlisp-page'), fullPage: true });

    const alias = await page.goto(`${session.app.url}/$${code}`);
    expect(alias?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe(`$${code}`);
    expect(cspViolations(page.problems)).toEqual([]);
  });
});

describe('a piece page', () => {
  it('shows highlighted source and links the raw module, served as text/javascript', async () => {
    const source =
      '// A red box\nexport function paint({ wipe, ink }) {\n  wipe(0);\n  ink(255, 0, 0).box(10, 10, 50, 50);\n}\n';
    const code = await publish('/api/store-piece', { name: `Red Box ${Date.now()}`, source });
    const page = await session.browser.newPage();
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    expect(await page.locator('#source').innerText()).toContain('export function paint');
    expect(await page.locator('#source .tok-keyword').first().innerText()).toBe('export');
    const href = await page.locator(`a[href="/${code}.mjs"]`).getAttribute('href');
    await page.screenshot({ path: screenshotPath('piece-page'), fullPage: true });

    const rawFile = await httpFetch(`${session.app.url}${href}`);
    expect(rawFile.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await rawFile.text()).toBe(source);
    expect(cspViolations(page.problems)).toEqual([]);
  });
});

describe('media pages', () => {
  it('a painting shows its image from storage', async () => {
    const slug = '2026/08/03/e2e-gradient.png';
    await session.app.services.storage.put(slug, gradientPng(), 'image/png');
    const code = await publish('/api/track-media', { slug, ext: 'png' });
    const page = await session.browser.newPage();
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    const image = page.locator('figure.painting img');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);
    await page.screenshot({ path: screenshotPath('painting-page') });
    expect(cspViolations(page.problems)).toEqual([]);
  });

  it('a zip tape offers its download', async () => {
    const slug = '2026/08/03/e2e-tape.zip';
    await session.app.services.storage.put(
      slug,
      Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'), 'latin1'),
      'application/zip',
    );
    const code = await publish('/api/track-media', {
      slug,
      ext: 'zip',
      metadata: { totalDuration: 12.5 },
    });
    const page = await session.browser.newPage();
    expect((await page.goto(`${session.app.url}/${code}`))?.status()).toBe(200);
    expect(await page.locator('main').innerText()).toContain('12.5 s');
    expect(await page.locator('.download a').innerText()).toBe(`Download ${code}.zip`);
    await page.screenshot({ path: screenshotPath('tape-zip-page') });
    const download = await httpFetch(`${session.app.url}/${code}.zip`);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toContain('attachment');
  });
});

describe('an unknown code', () => {
  it.each([
    '/nosuchcode',
    '/$nosuchcode',
    '/clock~nosuchcode',
    '/nosuchcode.mjs',
  ])('%s is a 404 page', async (path) => {
    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}${path}`);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').innerText()).toBe('Not found');
    if (path === '/clock~nosuchcode')
      await page.screenshot({ path: screenshotPath('not-found-page') });
  });
});

describe('the API documentation page', () => {
  it('renders for a browser under the strict page CSP', async () => {
    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/api`);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').innerText()).toBe('Publishing and Chat-Reading API');
    expect(await page.locator('section.endpoint').count()).toBeGreaterThanOrEqual(7);
    await page.screenshot({ path: screenshotPath('api-docs-page') });
    expect(page.problems).toEqual([]);
  });
});
