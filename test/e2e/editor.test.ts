import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_STORAGE_KEY } from '../../src/pages/client/publish-client.js';
import { createAuthor, publish } from '../items/fixtures.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { seriousAccessibilityViolations } from './support/axe.js';
import { screenshotPath } from './support/browser.js';
import { canvasPixel, near } from './support/pixels.js';

const session = useAppAndBrowser({}, { bundles: true });
let http: HttpClient;
beforeAll(() => {
  http = createHttpClient(session.app.url);
});
afterAll(() => http?.close());

type EditorPage = Awaited<ReturnType<typeof session.browser.newPage>>;

/** Every page a test opened: none may have met a policy refusal or a script error. */
const opened: EditorPage[] = [];
async function newPage(): Promise<EditorPage> {
  const page = await session.browser.newPage();
  opened.push(page);
  return page;
}
afterEach(async () => {
  for (const page of opened.splice(0)) {
    expect(page.problems).toEqual([]);
    await page.close();
  }
});

const cspViolations = (problems: string[]) =>
  problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem));

async function openEditor(path = '/new'): Promise<EditorPage> {
  const page = await newPage();
  // Each test starts without a draft left by another.
  await page.goto(`${session.app.url}/`);
  await page.evaluate(() => localStorage.clear());
  const response = await page.goto(`${session.app.url}${path}`);
  expect(response?.status()).toBe(200);
  await page.locator('.cm-content').waitFor();
  return page;
}

/** Replaces the editor's text by typing `source`, key by key, as a person would. */
async function typeProgram(page: EditorPage, source: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(source);
}

const editorText = (page: EditorPage) =>
  page
    .locator('.cm-content')
    .evaluate((content) =>
      [...content.querySelectorAll('.cm-line')].map((line) => line.textContent).join('\n'),
    );

const previewPixel = (page: EditorPage, x: number, y: number) =>
  canvasPixel(page, '#preview', x, y);

describe('/new, the KidLisp editor', () => {
  it('draws what is typed in the preview, the page’s only canvas, with no policy refusal', async () => {
    const page = await openEditor();
    expect(await page.locator('canvas').count()).toBe(1);
    await typeProgram(page, '(wipe black)\n(ink red)\n(box 0 0 40 40)');
    await expect
      .poll(() => previewPixel(page, 10, 10).then((p) => near(p, [255, 0, 0, 255])))
      .toBe(true);
    expect(near(await previewPixel(page, 200, 200), [0, 0, 0, 255])).toBe(true);
    await page.screenshot({ path: screenshotPath('editor-typed'), fullPage: true });

    // Ctrl+Enter runs at once (no pause needed).
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('(wipe lime)');
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect
      .poll(() => previewPixel(page, 128, 128).then((p) => near(p, [0, 255, 0, 255])))
      .toBe(true);
    expect(page.problems).toEqual([]);
  });

  it('shows an unclosed paren as a diagnostic at its line, inline and in the list', async () => {
    const page = await openEditor();
    await typeProgram(page, '(wipe blue)\n(ink red\n(box 1 1 9 9)');
    const listed = page.locator('#editor-diagnostics li');
    await expect
      .poll(() => listed.allInnerTexts())
      .toContainEqual(
        expect.stringMatching(
          /^line 2, column 1: warning: '\(' at line 2, column 1 is never closed/,
        ),
      );
    // The inline mark sits on line 2 (the second .cm-line), under the open paren.
    const markedLines = await page
      .locator('.cm-content')
      .evaluate((content) =>
        [...content.querySelectorAll('.cm-line')]
          .map((line, index) => (line.querySelector('.cm-lintRange-warning') ? index + 1 : 0))
          .filter(Boolean),
      );
    expect(markedLines).toEqual([2]);
    expect(await page.locator('.cm-gutter-lint .cm-lint-marker-warning').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('editor-unclosed-paren'), fullPage: true });
  });

  it('names the words the preview does not draw, and keeps the page answering through a program that never ends', async () => {
    const page = await openEditor();
    await typeProgram(
      page,
      '(later forever n (forever n))\n(wipe navy)\n(forever 1)\n(cubespin 1)',
    );
    await expect.poll(() => page.locator('#not-drawn').innerText()).toContain('cubespin');
    const notice = page.locator('[data-kidlisp-notice="editor-source"]');
    await expect
      .poll(() => notice.innerText(), { timeout: 10_000 })
      .toMatch(/more than 128 deep; the frame was cut short/);
    // The page still answers: typing still changes the text and the preview.
    await typeProgram(page, '(wipe red)');
    await expect
      .poll(() => previewPixel(page, 5, 5).then((p) => near(p, [255, 0, 0, 255])))
      .toBe(true);
  });

  it('Publish lands on the new work’s page, and the home page lists it first', async () => {
    const page = await openEditor();
    const source = `(wipe purple)\n(ink yellow)\n(circle 128 128 40) ; ${Date.now()}`;
    await typeProgram(page, source);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL((url) => url.pathname !== '/new');
    const code = new URL(page.url()).pathname.slice(1);
    expect(await page.locator('h1').innerText()).toBe(`$${code}`);
    expect(await page.locator('#source').innerText()).toContain('(circle 128 128 40)');
    await page.screenshot({ path: screenshotPath('editor-published'), fullPage: true });
    await page.goto(`${session.app.url}/`);
    expect(await page.locator('.works-grid .work-card').first().getAttribute('data-code')).toBe(
      code,
    );
    expect(cspViolations(page.problems)).toEqual([]);
  });

  it('publishes as the author whose key the browser keeps (Authorization: Bearer)', async () => {
    const author = await createAuthor(session.app, 'editorkey');
    const page = await openEditor();
    await page.evaluate(
      ([name, key]) => localStorage.setItem(name as string, key as string),
      [API_KEY_STORAGE_KEY, author.token],
    );
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/store-kidlisp'));
    await typeProgram(page, `(wipe salmon) ; ${Date.now()}`);
    await page.getByRole('button', { name: 'Publish' }).click();
    expect((await sent).headers().authorization).toBe(`Bearer ${author.token}`);
    await page.waitForURL((url) => url.pathname !== '/new');
    const code = new URL(page.url()).pathname.slice(1);
    await page.goto(`${session.app.url}/`);
    const card = page.locator(`.work-card[data-code="${code}"]`);
    expect(await card.locator('.author').innerText()).toBe('@editorkey');
  });

  it('"Remix" on a work’s page opens the editor with its source; publishing shows "remix of" on the new page', async () => {
    const source = '(wipe darkgreen)\n(ink white)\n(box 20 20 30 30)';
    const parent = await publish(http, '/api/store-kidlisp', { source });
    const page = await newPage();
    await page.goto(`${session.app.url}/${parent}`);
    await page.getByRole('link', { name: 'Remix' }).click();
    await page.waitForURL(`${session.app.url}/new?remix=${parent}`);
    await page.locator('.cm-content').waitFor();
    expect(await editorText(page)).toBe(source);
    expect(await page.locator('#remixing').innerText()).toContain(`Remix of $${parent}`);
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('\n(ink red)\n(box 60 60 10 10)');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(
      (url) => !url.pathname.startsWith('/new') && url.pathname !== `/${parent}`,
    );
    expect(await page.locator('.remix-of').innerText()).toContain(`remix of $${parent}`);
    await page.screenshot({ path: screenshotPath('editor-remix-published'), fullPage: true });
  });

  it('keeps the draft through a reload, and "Discard draft" goes back', async () => {
    const page = await openEditor();
    await typeProgram(page, '(wipe orange) ; my draft');
    await page.reload();
    await page.locator('.cm-content').waitFor();
    expect(await editorText(page)).toBe('(wipe orange) ; my draft');
    await expect
      .poll(() => previewPixel(page, 5, 5).then((p) => near(p, [255, 165, 0, 255])))
      .toBe(true);
    await page.getByRole('button', { name: 'Discard draft' }).click();
    expect(await editorText(page)).toContain('(wipe navy)');
    await page.reload();
    await page.locator('.cm-content').waitFor();
    expect(await editorText(page)).toContain('(wipe navy)');
  });

  it('downloads the preview as a PNG and as an animated GIF', async () => {
    const page = await openEditor();
    await typeProgram(page, '(wipe (0.1s... red blue))');
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PNG' }).click(),
    ]);
    expect(png.suggestedFilename()).toBe('kidlisp.png');
    const pngBytes = await readDownload(png);
    expect(pngBytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    const [gif] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download GIF' }).click(),
    ]);
    expect(gif.suggestedFilename()).toBe('kidlisp.gif');
    const gifBytes = await readDownload(gif);
    expect(gifBytes.subarray(0, 6).toString('ascii')).toBe('GIF89a');
    // More than one frame: a Graphic Control Extension (0x21 0xf9) per frame.
    expect(countFrames(gifBytes)).toBeGreaterThan(1);
  });

  it('can be used and left with the keyboard alone, and works 390 px wide', async () => {
    const page = await openEditor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press('Tab'); // the first link
    const focusOrder: string[] = [];
    for (let i = 0; i < 8; i++) {
      focusOrder.push(
        await page.evaluate(() => {
          const active = document.activeElement;
          const inner = active?.shadowRoot?.activeElement;
          return (
            (inner ?? active)?.getAttribute('aria-label') ?? active?.id ?? active?.textContent ?? ''
          );
        }),
      );
      await page.keyboard.press('Tab');
    }
    const editorAt = focusOrder.indexOf('KidLisp source');
    expect(editorAt, focusOrder.join(' | ')).toBeGreaterThanOrEqual(0);
    // Tab leaves the editor: the next stops are the preview (it takes keys, as on a work's page)
    // and its Run button, not an indented line.
    expect(focusOrder.slice(editorAt + 1, editorAt + 3)).toEqual(['Preview of the program', 'run']);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('editor-390px'), fullPage: true });
  });
});

describe('/new?kind=clock, the melody editor', () => {
  it('plays what is written, publishes, and a melody’s "Remix" opens it again', async () => {
    const page = await openEditor('/new?kind=clock');
    await typeProgram(page, 'c d e f g');
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.clockState)).toBe('playing');
    await expect
      .poll(() => page.evaluate(() => Number(document.body.dataset.scheduled)))
      .toBeGreaterThanOrEqual(5);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/clock~[a-z0-9]+$/);
    const melody = new URL(page.url()).pathname.slice(1);
    await page.getByRole('link', { name: 'Remix' }).click();
    await page.locator('.cm-content').waitFor();
    expect(await editorText(page)).toBe('c d e f g');
    expect(await page.locator('#remixing').innerText()).toContain(`Remix of ${melody}`);
    expect(cspViolations(page.problems)).toEqual([]);
  });
});

describe('without JavaScript', () => {
  it('/new is a plain form that publishes and goes to the work', async () => {
    const page = await newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.goto(`${session.app.url}/new`);
    expect(await page.locator('.cm-content').count()).toBe(0);
    const textarea = page.getByLabel('KidLisp source');
    await textarea.fill('(wipe gray)\n(ink white)\n(line 0 0 255 255) ; no script');
    await page.screenshot({ path: screenshotPath('editor-no-script'), fullPage: true });
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL((url) => url.pathname !== '/new');
    expect(await page.locator('h1').innerText()).toMatch(/^\$[a-z0-9]+$/);
    expect(await page.locator('#source').innerText()).toContain('; no script');
  });
});

describe('accessibility (axe-core)', () => {
  it('finds no serious or critical violation on /new, / and a KidLisp work’s page', async () => {
    const code = await publish(http, '/api/store-kidlisp', {
      source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)',
    });
    const page = await openEditor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.goto(`${session.app.url}/new?kind=clock`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.goto(`${session.app.url}/`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.goto(`${session.app.url}/${code}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

async function readDownload(download: { path(): Promise<string | null> }): Promise<Buffer> {
  const { readFile } = await import('node:fs/promises');
  return readFile((await download.path()) as string);
}

function countFrames(gif: Buffer): number {
  let frames = 0;
  for (let i = 0; i + 1 < gif.length; i++) if (gif[i] === 0x21 && gif[i + 1] === 0xf9) frames++;
  return frames;
}
