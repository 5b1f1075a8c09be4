import { describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/db/collections.js';
import { removalEventsOf } from '../../src/operations/events/removal-events.js';
import { takeDown } from '../../src/operations/takedowns/take-down.js';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

const session = useAppAndBrowser();

describe('a visitor reports a work, and sees it once removed', () => {
  it('sends the report form from the page with no script of its own, then meets the removed page', async () => {
    const published = await postJson(`${session.app.url}/api/store-clock`, {
      source: `c e g ; reported in a browser ${Date.now()}`,
    });
    const code = published.body?.code as string;
    const page = await session.browser.newPage();
    await page.goto(`${session.app.url}/clock~${code}`);
    await page.getByRole('link', { name: 'Report' }).click();
    await page.waitForURL(`${session.app.url}/clock~${code}/report`);
    expect(await page.locator('script').count()).toBe(0);
    await page.getByLabel('Spam or advertising').check();
    await page.getByLabel('Details (optional)').fill('The same melody posted fifty times.');
    await page.screenshot({ path: screenshotPath('takedowns-report-form'), fullPage: true });
    await page.getByRole('button', { name: 'Send the report' }).click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('Thank you');

    const reports = await session.app.db.db
      .collection(collectionNames.workReports)
      .find({ address: `clock~${code}` })
      .toArray();
    expect(reports).toMatchObject([
      { reason: 'spam', details: 'The same melody posted fifty times.', state: 'open' },
    ]);

    await takeDown(
      session.app.db,
      { address: `clock~${code}`, by: 'operator', reason: 'a private reason' },
      removalEventsOf(session.app.services),
    );
    // This instance follows the removal counter, as every instance does.
    await expect
      .poll(async () => (await page.goto(`${session.app.url}/clock~${code}`))?.status(), {
        timeout: 1_000,
      })
      .toBe(410);
    expect(await page.locator('h1').innerText()).toBe('Removed');
    expect(await page.locator('main').innerText()).not.toContain('a private reason');
    await page.screenshot({ path: screenshotPath('takedowns-removed-page'), fullPage: true });
    // The browser notes the 410 itself in the console; nothing else went wrong.
    expect(page.problems.filter((problem) => !/status of 410/.test(problem))).toEqual([]);
  });
});
