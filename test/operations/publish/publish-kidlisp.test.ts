import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../../src/auth/api-tokens.js';
import { runOperation } from '../../../src/operations/operation.js';
import { publishKidlisp } from '../../../src/operations/publish/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
});
afterAll(() => app.close());

const publish = async (input: unknown, request?: { authorization?: string }) =>
  runOperation(publishKidlisp, await testContext(app.services, request), input);

const padded = (prefix: string, length: number) =>
  `${prefix + ' '.repeat(length - prefix.length - 1)};`;

describe('publishKidlisp', () => {
  it('gives a new 3-character code and its URL, then the same code, cached, for the same trimmed source', async () => {
    const first = await publish({ source: '(wipe olive) ; op-1' });
    expect(first).toEqual({
      code: expect.stringMatching(/^[a-z2-9]{3}$/),
      cached: false,
      url: `https://art.example/${first.code}`,
    });
    const again = await publish({ source: '  \n(wipe olive) ; op-1\n\t' });
    expect(again).toEqual({ ...first, cached: true });
    expect(await app.db.kidlisp.countDocuments({ code: first.code })).toBe(1);
    expect(await app.db.kidlisp.findOne({ code: first.code })).toMatchObject({
      source: '(wipe olive) ; op-1',
    });
  });

  it('records the account of a valid token as user, and no user without one', async () => {
    await app.db.handles.insertOne({ _id: 'auth0|op-artist', handle: 'op-artist' });
    const { token } = await createApiToken(app.db, {
      handle: '@op-artist',
      account: 'auth0|op-artist',
    });
    const mine = await publish(
      { source: '(ink red) ; op-2' },
      { authorization: `Bearer ${token}` },
    );
    expect(await app.db.kidlisp.findOne({ code: mine.code })).toMatchObject({
      user: 'auth0|op-artist',
    });
    const anonymous = await publish({ source: '(ink red) ; op-3' });
    expect(await app.db.kidlisp.findOne({ code: anonymous.code })).not.toHaveProperty('user');
  });

  it('accepts 50,000 characters and refuses one more with SOURCE_TOO_LONG', async () => {
    const exact = padded('(wipe red)', 50_000);
    expect((await publish({ source: exact })).cached).toBe(false);
    const error = await appErrorOf(publish({ source: padded('(wipe red)', 50_001) }));
    expect(error).toMatchObject({ code: 'SOURCE_TOO_LONG', status: 400 });
  });

  it.each([
    [{}, 'SOURCE_REQUIRED'],
    [{ source: null }, 'SOURCE_REQUIRED'],
    [{ source: '  \n ' }, 'SOURCE_REQUIRED'],
    [{ source: 42 }, 'SOURCE_NOT_STRING'],
    [{ source: { $gt: '' } }, 'SOURCE_NOT_STRING'],
    ['(wipe red)', 'INVALID_INPUT'],
    [null, 'INVALID_INPUT'],
  ])('refuses %j with %s and writes nothing', async (input, code) => {
    const before = await app.db.kidlisp.countDocuments();
    const error = await appErrorOf(publish(input));
    expect(error.code).toBe(code);
    expect(error.toJSON()).toMatchObject({ code, error: error.message, message: error.message });
    expect(await app.db.kidlisp.countDocuments()).toBe(before);
  });
});
