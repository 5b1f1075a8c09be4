import { beforeAll, describe, expect, it } from 'vitest';
import { insertHandles, insertMessages, message } from '../chat/fixtures.js';
import { startTestApp } from '../support/app.js';
import { httpFetch } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

const session = useAppAndBrowser();

beforeAll(async () => {
  await insertHandles(session.app.db, { 'account-ada': 'ada' });
  await insertMessages(session.app.db, [
    message('system', 1, 'hello from the e2e test', { user: 'account-ada', hearts: 2 }),
    message('system', 2, 'a second message'),
  ]);
});

describe('GraphiQL at /graphql', () => {
  it('loads from this origin under its CSP and runs the preloaded chatMessages query', async () => {
    const page = await session.browser.newPage();
    const offsite: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(session.app.url) && !/^(data|blob):/.test(request.url()))
        offsite.push(request.url());
    });
    const response = await page.goto(`${session.app.url}/graphql`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);

    // The example operations are preloaded; the run button asks which one to run.
    await page.getByText('query ChatMessages').first().waitFor({ timeout: 20_000 });
    await page.locator('.graphiql-execute-button').click();
    await page.getByRole('menuitem', { name: 'ChatMessages' }).click();

    // The result editor (Monaco) renders spaces as no-break spaces.
    const resultText = async () =>
      (await page.locator('.result-window').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(resultText, { timeout: 20_000 }).toContain('hello from the e2e test');
    const text = await resultText();
    expect(text).toContain('@ada');
    expect(text).not.toContain('"errors"');
    await page.screenshot({ path: screenshotPath('graphiql-chat-messages'), fullPage: true });

    expect(offsite).toEqual([]);
    expect(
      page.problems.filter((problem) => /Content Security Policy|Refused/i.test(problem)),
    ).toEqual([]);
  });
});

describe('GRAPHIQL=false (production)', () => {
  it('serves no GraphiQL page and no GraphiQL assets', async () => {
    const quiet = await startTestApp({ GRAPHIQL: 'false' });
    try {
      const page = await httpFetch(`${quiet.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(406); // no HTML representation without GraphiQL
      expect((await page.text()).toLowerCase()).not.toContain('graphiql');
      expect((await httpFetch(`${quiet.url}/assets/graphiql/yoga-graphiql.js`)).status).toBe(404);
      const query = await httpFetch(`${quiet.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ version }' }),
      });
      expect(await query.json()).toEqual({
        data: { version: '1.1.0' },
        extensions: { cost: { requestedQueryCost: 0, maximumAvailable: 5000 } },
      });
    } finally {
      await quiet.close();
    }
  });
});
