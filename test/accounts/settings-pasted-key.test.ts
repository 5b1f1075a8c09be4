import { describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { useAppAndBrowser } from '../e2e/support/app-and-browser.js';
import { postJson } from '../support/http-client.js';

const session = useAppAndBrowser();

describe('/settings/keys without an issuer (the embedded default)', () => {
  it('takes a pasted key, kept in the browser, and makes and revokes keys with it', async () => {
    const { app, browser } = session;
    const { token, record } = await createApiToken(app.db, { handle: '@paster' });
    const page = await browser.newPage();
    try {
      await page.goto(`${app.url}/settings/keys`);
      await page.waitForSelector('#paste-key');
      expect(await page.$('#sign-in-link')).toBeNull();
      await page.fill('#pasted-key', token);
      await page.click('#paste-key button');
      await page.waitForFunction(() =>
        document.getElementById('who-text')?.textContent?.includes('@paster'),
      );
      expect(await page.evaluate(() => localStorage.getItem('publish-gateway:key'))).toBe(token);

      await page.fill('#key-name', 'laptop assistant');
      await page.click('#create-key-button');
      await page.waitForSelector('#new-key:not([hidden])');
      const key = (await page.textContent('#new-key-value')) ?? '';
      const published = await postJson(
        `${app.url}/api/store-kidlisp`,
        { source: '(wipe navy) ; pasted' },
        { authorization: `Bearer ${key}` },
      );
      expect(published.status).toBe(201);
      expect((await app.db.kidlisp.findOne({ code: published.body?.code }))?.user).toBe(
        record.account,
      );

      // Reloaded, the page still knows the member from the kept key.
      await page.reload();
      await page.waitForSelector('#key-list li');
      const item = page.locator('#key-list li', { hasText: 'laptop assistant' });
      await item.locator('button').click();
      await page.waitForFunction(
        () => !document.getElementById('key-list')?.textContent?.includes('laptop assistant'),
      );
      const refused = await postJson(
        `${app.url}/api/store-clock`,
        { source: 'a c e' },
        { authorization: `Bearer ${key}` },
      );
      expect(refused.status).toBe(401);
      expect(page.problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
