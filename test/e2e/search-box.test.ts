import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../items/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import {
  type Browser,
  INSTALL_TIMEOUT_MS,
  launchBrowser,
  screenshotPath,
} from './support/browser.js';

let app: TestApp;
let http: HttpClient;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  http = createHttpClient(app.url);
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  http?.close();
  await browser?.close();
  await app?.close();
});

describe('the home page\u2019s search box', () => {
  it('finds only the works holding the term typed, without scripts, the term kept in the box', async () => {
    const matching = [
      await publish(http, '/api/store-kidlisp', { source: '(wipe navy)\n(ink zebra-stripes)' }),
      await publish(http, '/api/store-clock', { source: 'c e g ; Zebra melody' }),
    ];
    const others = [
      await publish(http, '/api/store-kidlisp', { source: '(wipe red)' }),
      await publish(http, '/api/store-clock', { source: 'd f a ; horse' }),
    ];

    const page = await browser.newPage();
    const response = await page.goto(`${app.url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('script').count()).toBe(0);
    const codesShown = () =>
      page
        .locator('.works-grid .work-card')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-code')));
    expect(await codesShown()).toEqual([...matching, ...others].reverse());

    await page.getByLabel('Search works').fill('zebra');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${app.url}/?search=zebra`);
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
    await page.waitForURL(`${app.url}/?search=unicorn`);
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
