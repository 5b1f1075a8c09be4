import { beforeAll, describe, expect, it } from 'vitest';
import { insertLive, waitForDeliveriesPatiently } from '../chat/live-support.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

waitForDeliveriesPatiently();

const session = useAppAndBrowser({ CHAT_POLL_INTERVAL_MS: '100' });

beforeAll(async () => {
  await session.app.db.handles.insertOne({ _id: 'auth0|ada', handle: 'ada' });
  await insertLive(session.app.db, 'system', 'already here', 'auth0|ada');
});

describe('the /chat page', () => {
  it('shows the latest messages, then appends a new one live, under the strict CSP', async () => {
    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/chat`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    const texts = () => page.locator('#chat-messages .text').allTextContents();
    expect(await texts()).toEqual(['already here']);
    await expect.poll(() => page.locator('#chat-status').getAttribute('data-state')).toBe('live');

    await insertLive(session.app.db, 'system', 'hello <b>live</b>', 'auth0|ada');
    await insertLive(session.app.db, 'clock', 'not in this channel');
    await expect.poll(texts).toEqual(['already here', 'hello <b>live</b>']);
    expect(await page.locator('#chat-messages .from').allTextContents()).toEqual(['@ada', '@ada']);
    // Text stays text: no element came out of the message.
    expect(await page.locator('#chat-messages .text b').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('chat-live'), fullPage: true });
    expect(page.problems).toEqual([]);
  });
});
