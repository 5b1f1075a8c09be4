import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/auth/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const postForm = (cookie: string, site: string, source: string) =>
  httpFetch(`${app.url}/new`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie,
      'sec-fetch-site': site,
    },
    body: new URLSearchParams({ kind: 'kidlisp', source }).toString(),
  });

describe('the editor\u2019s form publishes as the signed-in member', () => {
  it('records the member of the sign-in cookie, and refuses the same post from another site', async () => {
    const token = await startSession(app.db, 'member|editor');
    const mine = await postForm(
      `pgw_session=${token}`,
      'same-origin',
      '(wipe plum) ; editor member',
    );
    expect(mine.status).toBe(303);
    const code = (mine.headers.get('location') ?? '').slice(1);
    expect((await app.db.kidlisp.findOne({ code }))?.user).toBe('member|editor');
    const forged = await postForm(`pgw_session=${token}`, 'same-site', '(wipe plum) ; forged');
    expect(forged.status).toBe(403);
    expect(await app.db.kidlisp.findOne({ source: '(wipe plum) ; forged' })).toBeNull();
  });
});
