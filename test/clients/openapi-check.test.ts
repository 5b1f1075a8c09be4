import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CheckedAnswer, openapiCheckerFor } from '../support/openapi-check.js';

/** The checker every REST answer of the suite goes through does catch a drifted answer. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const json = (status: number, body: unknown, path = '/api/store-kidlisp', method = 'POST') =>
  ({
    method,
    path,
    status,
    headers: (name: string) =>
      name === 'content-type' ? 'application/json; charset=utf-8' : undefined,
    text: JSON.stringify(body),
  }) satisfies CheckedAnswer;

describe('the OpenAPI answer checker', () => {
  it('passes documented answers', async () => {
    const checker = await openapiCheckerFor(app.url);
    expect(checker.check(json(201, { code: 'k7x', url: 'http://x/k7x', cached: false }))).toEqual(
      [],
    );
    expect(
      checker.check(json(400, { error: 'No.', message: 'No.', code: 'SOURCE_REQUIRED' })),
    ).toEqual([]);
  });

  it.each([
    ['a body of the wrong shape', json(201, { code: 'k7x', cached: 'no' })],
    ['an error outside the error shape', json(400, { error: 'No.' })],
    ['an undocumented status', json(418, { error: 'No.', message: 'No.', code: 'INTERNAL' })],
    ['an undocumented path answering 200', json(200, {}, '/api/secret', 'GET')],
    ['an undocumented method answering 200', json(200, {}, '/api/store-kidlisp', 'PUT')],
    [
      'a 401 without WWW-Authenticate',
      json(401, { error: 'No.', message: 'No.', code: 'UNAUTHENTICATED' }),
    ],
    [
      'a 408 with no body',
      { ...json(408, {}), text: '', headers: () => undefined } satisfies CheckedAnswer,
    ],
  ])('rejects %s', async (_label, answer) => {
    const checker = await openapiCheckerFor(app.url);
    expect(checker.check(answer)).not.toEqual([]);
  });
});
