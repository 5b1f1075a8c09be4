import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

const session = useAppAndBrowser();

async function publish(path: string, body: unknown): Promise<string> {
  const response = await postJson(`${session.app.url}${path}`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body?.code as string;
}

const cspViolations = (problems: string[]) =>
  problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem));

describe('the pages of a work and its remixes', () => {
  it('a remix links its parent, and the parent lists the remix, even after its page was seen', async () => {
    const parent = await publish('/api/store-kidlisp', {
      source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)',
    });
    const page = await session.browser.newPage();
    // Seen once before any remix exists: the page is rendered and kept.
    await page.goto(`${session.app.url}/${parent}`);
    expect(await page.locator('.remixes li').count()).toBe(0);

    const remix = await publish('/api/store-kidlisp', {
      source: '(wipe purple)\n(ink yellow)\n(circle 128 128 80)',
      remixOf: parent,
    });
    const melody = await publish('/api/store-clock', { source: 'c e g e c', remixOf: parent });

    const remixPage = await page.goto(`${session.app.url}/${remix}`);
    expect(remixPage?.status()).toBe(200);
    const link = page.locator('.remix-of a');
    expect(await page.locator('.remix-of').innerText()).toContain(`remix of $${parent}`);
    await page.screenshot({ path: screenshotPath('lineage-remix-page'), fullPage: true });
    await link.click();
    await page.waitForURL(`${session.app.url}/${parent}`);
    expect(await page.locator('h1').innerText()).toBe(`$${parent}`);

    // The parent's page now lists both remixes, newest first, each linking its page.
    const items = page.locator('.remixes li a');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.allInnerTexts()).toEqual([`clock~${melody}`, `$${remix}`]);
    expect(await page.locator('.remix-of').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('lineage-parent-page'), fullPage: true });
    await items.first().click();
    await page.waitForURL(`${session.app.url}/clock~${melody}`);
    expect(await page.locator('.remix-of a').getAttribute('href')).toBe(`/${parent}`);
    expect(cspViolations(page.problems)).toEqual([]);
  });
});
