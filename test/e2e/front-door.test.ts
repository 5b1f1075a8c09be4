import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthor, publish } from '../items/fixtures.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

const session = useAppAndBrowser();
let http: HttpClient;

beforeAll(() => {
  http = createHttpClient(session.app.url);
});

afterAll(() => {
  http?.close();
});

const naturalWidths = (images: Element[]) =>
  images.map((image) => (image as HTMLImageElement).naturalWidth);

/** Each image's center pixel as "r,g,b", read through a canvas (the thumbnails are same-origin). */
const centerColors = (images: Element[]) =>
  images.map((element) => {
    const image = element as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(image, 0, 0);
    return [
      ...context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data.slice(0, 3),
    ].join(',');
  });

describe('the home page', () => {
  it('shows thumbnails of three works just published, newest first, each linking to its page', async () => {
    const colors = ['red', 'lime', 'blue'];
    const codes: string[] = [];
    for (const color of colors)
      codes.push(await publish(http, '/api/store-kidlisp', { source: `(wipe ${color})` }));
    const newestFirst = [...codes].reverse();

    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    // Works without scripts: the page has none.
    expect(await page.locator('script').count()).toBe(0);

    const cards = page.locator('.works-grid .work-card');
    expect(
      await cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-code'))),
    ).toEqual(newestFirst);
    const links = await page
      .locator('.works-grid .work-link')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).toEqual(newestFirst.map((code) => `/$${code}`));
    // Every picture shows, none broken: drawn, or the placeholder while its render waits its turn.
    await expect
      .poll(() => page.locator('.works-grid img').evaluateAll(naturalWidths), { timeout: 30_000 })
      .toEqual([256, 256, 256]);
    // The renders go on: reloaded, the page shows each program's own picture (its wipe color).
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.waitForFunction(() =>
            [...document.querySelectorAll('.works-grid img')].every(
              (image) => (image as HTMLImageElement).complete,
            ),
          );
          return page.locator('.works-grid img').evaluateAll(centerColors);
        },
        { timeout: 90_000, interval: 2_000 },
      )
      .toEqual(['0,0,255', '0,255,0', '255,0,0']);
    const thumbnails = await page
      .locator('.works-grid img')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src')));
    // `?v=` names the stored picture once it is drawn (drawn at publish, so it may be already).
    expect(thumbnails).toEqual(
      newestFirst.map((code) =>
        expect.stringMatching(new RegExp(`^/thumbnail/${code}\\.png(\\?v=[\\w-]{16})?$`)),
      ),
    );
    const feeds = await page
      .locator('link[rel="alternate"]')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('type')));
    expect(feeds).toEqual(['application/atom+xml', 'application/feed+json']);
    expect(await page.locator('.latest-chat a[href="/chat"]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('home-page'), fullPage: true });
    // Chromium reports each placeholder's 503 status; nothing else may go wrong.
    expect(
      page.problems.filter((problem) => !/status of 503 .*\/thumbnail\//.test(problem)),
    ).toEqual([]);

    await page.locator('.works-grid .work-link').first().click();
    await page.waitForURL(`${session.app.url}/$${newestFirst[0]}`);
    expect(await page.locator('h1').innerText()).toBe(`$${newestFirst[0]}`);
    await page.close();
  });
});

describe('an author page', () => {
  it('lists only that author\u2019s works, with how many there are; an unknown author is a 404 page', async () => {
    const [ada, bo] = await Promise.all([
      createAuthor(session.app, 'ada'),
      createAuthor(session.app, 'bo'),
    ]);
    const adaWorks = [
      await publish(http, '/api/store-kidlisp', { source: '(wipe purple) ; ada' }, ada.auth),
      await publish(http, '/api/store-clock', { source: 'c d e ; ada' }, ada.auth),
    ];
    const boWork = await publish(
      http,
      '/api/store-kidlisp',
      { source: '(wipe orange) ; bo' },
      bo.auth,
    );

    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/@ada`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('@ada');
    expect(await page.locator('.work-count').innerText()).toBe('2 works');
    const shown = await page
      .locator('.works-grid .work-card')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(shown).toEqual([...adaWorks].reverse());
    expect(shown).not.toContain(boWork);
    expect(await page.locator('.work-card .author').allInnerTexts()).toEqual(['@ada', '@ada']);
    // The picture shows (drawn, or the placeholder while its render waits), never broken.
    await expect
      .poll(() => page.locator('.works-grid img').evaluateAll(naturalWidths), { timeout: 30_000 })
      .toEqual([256]);
    await page.screenshot({ path: screenshotPath('author-page'), fullPage: true });
    expect(
      page.problems.filter((problem) => !/status of 503 .*\/thumbnail\//.test(problem)),
    ).toEqual([]);

    const missing = await page.goto(`${session.app.url}/@nobody`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Not found');
    expect(await page.locator('main').innerText()).toContain('No author has the handle @nobody.');
    await page.screenshot({ path: screenshotPath('author-not-found'), fullPage: true });
    await page.close();
  });
});

describe('the home page\u2019s search box', () => {
  it('finds only the works holding the term typed, without scripts, the term kept in the box', async () => {
    const matching = [
      await publish(http, '/api/store-kidlisp', { source: '(wipe navy)\n(ink zebra-stripes)' }),
      await publish(http, '/api/store-clock', { source: 'c e g ; Zebra melody' }),
    ];
    const others = [
      await publish(http, '/api/store-kidlisp', { source: '(wipe teal) ; a horse' }),
      await publish(http, '/api/store-clock', { source: 'd f a ; horse' }),
    ];

    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('script').count()).toBe(0);
    const codesShown = () =>
      page
        .locator('.works-grid .work-card')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-code')));
    // The newest works first (the other tests' works come after them).
    expect((await codesShown()).slice(0, 4)).toEqual([...matching, ...others].reverse());

    await page.getByLabel('Search works').fill('zebra');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${session.app.url}/?search=zebra`);
    // Both hold it only in their source: newest first.
    expect(await codesShown()).toEqual([...matching].reverse());
    expect(await page.getByLabel('Search works').inputValue()).toBe('zebra');
    expect(await page.locator('.work-card .excerpt mark').allInnerTexts()).toEqual([
      'Zebra',
      'zebra',
    ]);
    expect(await page.locator('.search-status').innerText()).toContain('Works holding');
    await page.screenshot({ path: screenshotPath('home-search'), fullPage: true });

    await page.getByLabel('Search works').fill('unicorn');
    await page.getByLabel('Search works').press('Enter');
    await page.waitForURL(`${session.app.url}/?search=unicorn`);
    expect(await codesShown()).toEqual([]);
    expect(await page.locator('.works-empty').innerText()).toBe(
      'Nothing found for \u201cunicorn\u201d.',
    );
    await page.screenshot({ path: screenshotPath('home-search-nothing'), fullPage: true });
    expect(
      page.problems.filter((problem) => !/status of 503 .*\/thumbnail\//.test(problem)),
    ).toEqual([]);
    await page.close();
  });
});
