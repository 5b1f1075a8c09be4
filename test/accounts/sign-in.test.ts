import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../e2e/support/browser.js';
import { connectStdio } from '../mcp/support.js';
import type { TestApp } from '../support/app.js';
import { httpFetch, postJson } from '../support/http-client.js';
import {
  type AppWithIssuer,
  signInOnSite,
  startAppWithIssuer,
  type TestIssuer,
} from '../support/oidc.js';

let app: TestApp;
let issuer: TestIssuer;
let browser: Browser;
let publicUrl: string;
let started: AppWithIssuer | undefined;
/** Another site, on another port of the same host (so the browser still sends the Lax cookie). */
let otherSite: Server;
let otherUrl: string;

beforeAll(async () => {
  [started, browser] = await Promise.all([startAppWithIssuer({ signIn: true }), launchBrowser()]);
  ({ app, issuer, publicUrl } = started);
  otherSite = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(attackPage(req.url ?? '/'));
  });
  otherSite.listen(0, '127.0.0.1');
  await once(otherSite, 'listening');
  otherUrl = `http://127.0.0.1:${(otherSite.address() as { port: number }).port}`;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await started?.close();
  otherSite?.closeAllConnections();
  otherSite?.close();
});

/**
 * What another site could do with a visitor who is signed in here: a script posting a body the
 * JSON parser reads (a Blob has no content type, so no preflight is needed), and a plain form
 * posting to sign-out.
 */
function attackPage(path: string): string {
  if (path === '/publish')
    return `<!doctype html><script>
fetch(${JSON.stringify(`${publicUrl}/api/store-kidlisp`)}, {
  method: 'POST', mode: 'no-cors', credentials: 'include',
  body: new Blob([JSON.stringify({ source: '(wipe red) ; forged' })]),
}).then(() => { document.title = 'sent'; }, () => { document.title = 'sent'; });
</script>`;
  return `<!doctype html><form id="f" method="post" action="${publicUrl}/auth/sign-out"></form>
<script>document.getElementById('f').submit();</script>`;
}

describe('sign-in on the site, and the keys page', () => {
  let page: Page;
  let key: string;

  it('signs a member in through the provider\u2019s own login page, with a first-party cookie', async () => {
    page = await browser.newPage();
    await signInOnSite(page, publicUrl, 'site-member');
    expect(await page.textContent('#who-text')).toContain('site-member');
    const cookie = (await browser.context.cookies(publicUrl)).find(
      (one) => one.name === 'pgw_session',
    );
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The page itself names nobody: what a shared cache keeps of it is the same for everyone.
    const shared = await (await httpFetch(`${publicUrl}/settings/keys`)).text();
    expect(shared).not.toContain('site-member');
  });

  it('publishes as the signed-in member from the site\u2019s own page', async () => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/store-kidlisp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source: '(wipe teal) ; signed in' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(answer.status).toBe(201);
    expect((await app.db.kidlisp.findOne({ code: answer.body.code }))?.user).toBe('site-member');
  });

  it('makes a key on /settings/keys that publishes through publish-mcp as the member', async () => {
    await page.fill('#key-name', 'my assistant');
    await page.click('#create-key-button');
    await page.waitForSelector('#new-key:not([hidden])');
    key = (await page.textContent('#new-key-value')) ?? '';
    expect(key).toMatch(/^pgw_/);
    await page.waitForSelector('#key-list li');
    expect(await page.textContent('#key-list')).toContain('my assistant');

    const client = await connectStdio(publicUrl, key);
    try {
      const result = await client.callTool({
        name: 'publish_kidlisp',
        arguments: { source: '(wipe gold) ; from my assistant' },
      });
      const { code } = result.structuredContent as { code: string };
      expect((await app.db.kidlisp.findOne({ code }))?.user).toBe('site-member');
    } finally {
      await client.close();
    }
  });

  it('revokes the key from the page: it answers 401 at once', async () => {
    await page.click('#key-list li button:has-text("Revoke")');
    await page.waitForFunction(() => document.querySelectorAll('#key-list li').length === 0);
    const refused = await postJson(
      `${publicUrl}/api/store-clock`,
      { source: 'c e g' },
      { authorization: `Bearer ${key}` },
    );
    expect(refused.status).toBe(401);
  });

  it('publishes nothing, and keeps the member signed in, when another site posts with the cookie', async () => {
    const before = await app.db.kidlisp.countDocuments();
    const attacker = await browser.newPage();
    try {
      await attacker.goto(`${otherUrl}/publish`);
      await attacker.waitForFunction(() => document.title === 'sent');
      await attacker.goto(`${otherUrl}/sign-out`);
      await attacker.waitForLoadState('load');
      expect(await attacker.textContent('body')).toContain('own pages');
    } finally {
      await attacker.close();
    }
    expect(await app.db.kidlisp.countDocuments()).toBe(before);
    expect(await app.db.kidlisp.findOne({ source: '(wipe red) ; forged' })).toBeNull();
    await page.reload();
    await page.waitForFunction(() =>
      document.getElementById('who-text')?.textContent?.includes('signed in'),
    );
  });

  it('signs out: the old cookie no longer acts for the member', async () => {
    const old = (await browser.context.cookies(publicUrl)).find(
      (one) => one.name === 'pgw_session',
    );
    await page.click('#sign-out button');
    await page.waitForURL(`${publicUrl}/`);
    const replayed = await postJson(
      `${publicUrl}/api/store-clock`,
      { source: 'g e c' },
      { cookie: `pgw_session=${old?.value}`, origin: publicUrl },
    );
    expect(replayed.status).toBe(401);
    await page.close();
  });

  it('lets a member manage keys with a JWT of the issuer, and refuses an expired one', async () => {
    const token = await issuer.sign({ sub: 'jwt-member' });
    const created = await postJson(
      `${publicUrl}/api/keys`,
      { name: 'from a jwt' },
      { authorization: `Bearer ${token}` },
    );
    expect(created.status).toBe(201);
    const expired = await issuer.sign({ sub: 'jwt-member' }, Math.floor(Date.now() / 1000) - 60);
    const refused = await postJson(
      `${publicUrl}/api/keys`,
      { name: 'late' },
      { authorization: `Bearer ${expired}` },
    );
    expect(refused.status).toBe(401);
  });
});
