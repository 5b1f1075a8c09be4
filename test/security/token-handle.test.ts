import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';
import { tokenCreate as runTokenCreate } from '../support/token-command.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const tokenCreate = (...args: string[]) => runTokenCreate(app, ...args);

async function publishedBy(token: string, source: string): Promise<string | undefined> {
  const response = await postJson(
    `${app.url}/api/store-kidlisp`,
    { source },
    { authorization: `Bearer ${token}` },
  );
  expect(response.status).toBe(201);
  return (await app.db.kidlisp.findOne({ code: response.body?.code }))?.user;
}

describe('token create: a handle belongs to one account', () => {
  it('issues the second token for @alice on the account of the first', async () => {
    const first = await tokenCreate('--handle', '@alice');
    const second = await tokenCreate('--handle', 'alice', '--label', 'laptop');
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(first.stderr).toContain('new account');
    expect(second.stderr).toContain('existing account');
    const accountOfFirst = await publishedBy(first.token, '(wipe red)');
    const accountOfSecond = await publishedBy(second.token, '(wipe blue)');
    expect(accountOfFirst).toMatch(/^gateway\|/);
    expect(accountOfSecond).toBe(accountOfFirst);
    expect(
      new Set((await app.db.apiTokens.find({ handle: 'alice' }).toArray()).map((t) => t.account))
        .size,
    ).toBe(1);
  });

  it('refuses to give an existing handle to another account', async () => {
    await tokenCreate('--handle', '@bob');
    const other = await tokenCreate('--handle', '@bob', '--account', 'gateway|someone-else');
    expect(other.code).not.toBe(0);
    expect(other.token).toBe('');
    expect(other.stderr).toMatch(/@bob already belongs to account/);
    expect(await app.db.apiTokens.countDocuments({ account: 'gateway|someone-else' })).toBe(0);
  });

  it('follows the reference @handles table when --account names the holder', async () => {
    await app.db.handles.insertOne({ _id: 'auth0|carol', handle: 'carol' });
    const issued = await tokenCreate('--handle', '@carol', '--account', 'auth0|carol');
    expect(await publishedBy(issued.token, '(wipe green)')).toBe('auth0|carol');
  });
});
