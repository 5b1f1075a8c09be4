import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/auth/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** What another site's page makes a browser send: the sign-in cookie rides along. */
const forged = (cookie: string, method: string, path: string, headers: Record<string, string>) =>
  httpFetch(`${app.url}${path}`, {
    method,
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body: method === 'DELETE' ? undefined : JSON.stringify({ name: 'forged' }),
  });

const elsewhere: Record<string, string>[] = [
  { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
  { 'sec-fetch-site': 'same-site' },
  { origin: 'https://evil.example' },
  { origin: 'null' },
];

describe('a signed-in member\u2019s cookie does nothing from another site', () => {
  it('refuses POST /api/keys and POST /auth/sign-out from another origin, and keeps the sign-in', async () => {
    const token = await startSession(app.db, 'member|cross-site');
    const cookie = `pgw_session=${token}`;
    for (const headers of elsewhere) {
      expect((await forged(cookie, 'POST', '/api/keys', headers)).status).toBe(403);
      expect((await forged(cookie, 'POST', '/auth/sign-out', headers)).status).toBe(403);
    }
    expect(await app.db.apiTokens.countDocuments({ account: 'member|cross-site' })).toBe(0);
    const mine = await forged(cookie, 'POST', '/api/keys', { 'sec-fetch-site': 'same-origin' });
    expect(mine.status).toBe(201);
  });
});
