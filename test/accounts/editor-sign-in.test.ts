import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, INSTALL_TIMEOUT_MS, launchBrowser } from '../e2e/support/browser.js';
import { buildClientBundles } from '../e2e/support/client-bundles.js';
import { canvasPixel, near } from '../e2e/support/pixels.js';
import { httpFetch } from '../support/http-client.js';
import { type AppWithIssuer, signInOnSite, startAppWithIssuer } from '../support/oidc.js';
import { tokenCreate } from '../support/token-command.js';

let started: AppWithIssuer;
let browser: Browser;

beforeAll(async () => {
  buildClientBundles();
  [started, browser] = await Promise.all([startAppWithIssuer({ signIn: true }), launchBrowser()]);
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await started?.close();
});

/** The test issuer's accounts are their login; its ID token says only `sub`. */
const MEMBER = 'editor-member';
const HANDLE = '@editormember';

describe('the editor, for a member signed in through the provider', () => {
  it('publishes what the member types in /new as that member, and the page names nobody', async () => {
    const { app, publicUrl } = started;
    // The provider gives no handle: a member's handle is the one `@handles` keeps for the account,
    // as the reference's members have; the operator gives this one with `token create`.
    const given = await tokenCreate(app, '--handle', HANDLE, '--account', MEMBER);
    expect(given.code, given.stderr).toBe(0);

    // The provider's own pages load what they like (web fonts): the sign-in has a tab of its own,
    // and the site's pages that follow are checked on another, which shares its cookies.
    const signInTab = await browser.newPage();
    await signInOnSite(signInTab, publicUrl, MEMBER);
    await signInTab.close();
    const page = await browser.newPage();

    const editor = await page.goto(`${publicUrl}/new`);
    expect(editor?.status()).toBe(200);
    const memberHtml = (await editor?.text()) ?? '';
    await page.locator('.cm-content').waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(`(wipe black)\n(ink red)\n(box 0 0 40 40) ; ${Date.now()}`);
    await expect
      .poll(() => canvasPixel(page, '#preview', 10, 10).then((p) => near(p, [255, 0, 0, 255])))
      .toBe(true);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL((url) => url.pathname !== '/new');
    const code = new URL(page.url()).pathname.slice(1);
    expect(await page.locator('h1').innerText()).toBe(`$${code}`);
    expect(await page.locator('#source').innerText()).toContain('(box 0 0 40 40)');

    expect((await app.db.kidlisp.findOne({ code }))?.user).toBe(MEMBER);
    const item = await httpFetch(`${publicUrl}/api/items/${code}`);
    expect(item.status).toBe(200);
    expect((await item.json()).author).toBe(HANDLE);
    await page.goto(`${publicUrl}/${HANDLE}`);
    expect(await page.locator(`.work-card[data-code="${code}"] .author`).innerText()).toBe(HANDLE);

    // What the member was served at /new is what anyone is, so a shared cache may keep it.
    expect(memberHtml).not.toContain(MEMBER);
    expect(memberHtml).not.toContain(HANDLE);
    expect(await (await httpFetch(`${publicUrl}/new`)).text()).toBe(memberHtml);
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
