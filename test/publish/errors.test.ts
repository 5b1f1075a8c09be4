import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const piece = 'export function paint({ wipe }) { wipe("blue"); }';

function expectContractError(response: { status: number; body?: Record<string, unknown> }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code });
  expect(typeof response.body?.error).toBe('string');
  expect(response.body?.message).toBe(response.body?.error);
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
}

describe.each([
  ['/api/store-kidlisp', { source: '(wipe blue)' }],
  ['/api/store-clock', { source: 'cdefg' }],
  ['/api/store-piece', { source: piece }],
  ['/api/track-media', { slug: '2026/01/02/x.png', ext: 'png' }],
])('%s', (path, valid) => {
  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    expectContractError(await postJson(app.url + path, '{"source": '), 400, 'INVALID_JSON');
  });

  it('answers a body that is not an object with 400', async () => {
    expectContractError(await postJson(app.url + path, '[1,2]'), 400, 'INVALID_INPUT');
  });

  it('answers a bad bearer token with 401 and WWW-Authenticate, writing nothing', async () => {
    const response = await postJson(app.url + path, valid, { authorization: 'Bearer pgw_not-a-real-token' });
    expectContractError(response, 401, 'UNAUTHENTICATED');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await fetch(app.url + path, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
    expect(await response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await postJson(app.url + path, { source: 'x'.repeat(1_100_000) });
    expectContractError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await fetch(app.url + path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expectContractError({ status: response.status, body: await response.json() }, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a preflight with 204 and CORS headers', async () => {
    const response = await fetch(app.url + path, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST,OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type,Authorization');
  });
});

describe('field errors', () => {
  it.each([
    ['/api/store-kidlisp', {}, 'SOURCE_REQUIRED'],
    ['/api/store-kidlisp', { source: '   ' }, 'SOURCE_REQUIRED'],
    ['/api/store-kidlisp', { source: 42 }, 'SOURCE_NOT_STRING'],
    ['/api/store-kidlisp', { source: { $gt: '' } }, 'SOURCE_NOT_STRING'],
    ['/api/store-clock', { melody: ['c'] }, 'SOURCE_NOT_STRING'],
    ['/api/store-piece', { source: 'const x = 1;' }, 'PIECE_NO_LIFECYCLE'],
    ['/api/store-piece', { source: 'export function paint( {' }, 'PIECE_SYNTAX'],
    ['/api/store-piece', { source: piece, name: 12 }, 'NAME_INVALID'],
    ['/api/track-media', { slug: '2026/01/02/x.gif', ext: 'gif' }, 'EXT_UNSUPPORTED'],
    ['/api/track-media', { slug: '../etc/passwd.png', ext: 'png' }, 'SLUG_INVALID'],
    ['/api/track-media', { slug: '2026/01/02/t.zip', ext: 'zip', metadata: { totalDuration: 31 } }, 'TAPE_TOO_LONG'],
  ])('%s %j gives %s', async (path, body, code) => {
    expectContractError(await postJson(app.url + path, body), 400, code);
  });

  it('gives the piece syntax error position', async () => {
    const response = await postJson(`${app.url}/api/store-piece`, { source: 'export function paint() {\n  let = ;\n}' });
    expect(response.body).toMatchObject({ code: 'PIECE_SYNTAX', line: 2 });
    expect(response.body?.column).toBeGreaterThan(0);
  });

  it('reports the tape limit', async () => {
    const response = await postJson(`${app.url}/api/track-media`, { slug: '2026/01/02/t.zip', ext: 'zip', metadata: { totalDuration: 45 } });
    expect(response.body).toMatchObject({ code: 'TAPE_TOO_LONG', maxDuration: 30 });
  });

  it('answers a missing media object with 404', async () => {
    expectContractError(await postJson(`${app.url}/api/track-media`, { slug: '2026/01/02/absent.png', ext: 'png' }), 404, 'MEDIA_NOT_FOUND');
  });

  it('answers an unknown API route with 404', async () => {
    const response = await fetch(`${app.url}/api/nothing-here`);
    expectContractError({ status: response.status, body: await response.json() }, 404, 'NOT_FOUND');
  });

  it('accepts a POST without a content type as JSON', async () => {
    const body = JSON.stringify({ source: '(wipe red) ; no type' });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(`${app.url}/api/store-kidlisp`, { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(status).toBe(201);
  });

  it('wrote nothing for any rejected request', async () => {
    expect(await app.db.pieces.countDocuments({ source: 'const x = 1;' })).toBe(0);
    expect(await app.db.tapes.countDocuments()).toBe(0);
    expect(await app.db.codes.countDocuments({ kind: { $ne: 'kidlisp' } })).toBe(0);
  });
});

describe('when the database is away', () => {
  it('answers 503 with Retry-After, and readyz says so', async () => {
    const own = await startTestApp();
    try {
      await own.mongo.stop();
      const response = await postJson(`${own.url}/api/store-kidlisp`, { source: '(wipe green)' });
      expectContractError(response, 503, 'DB_UNAVAILABLE');
      expect(response.headers.get('retry-after')).toBeTruthy();
      const ready = await fetch(`${own.url}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await own.close().catch(() => {});
    }
  });
});
