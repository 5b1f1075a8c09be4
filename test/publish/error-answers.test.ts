import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, httpFetch, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const piece = 'export function paint({ wipe }) { wipe("blue"); }';

/** Documents in every collection a publish can write. */
const COLLECTIONS = ['kidlisp', 'clocks', 'pieces', 'paintings', 'tapes', 'codes'] as const;
async function counts(): Promise<Record<(typeof COLLECTIONS)[number], number>> {
  const { db } = app;
  const entries = await Promise.all(
    COLLECTIONS.map(async (name) => [name, await db[name].countDocuments()] as const),
  );
  return Object.fromEntries(entries) as Record<(typeof COLLECTIONS)[number], number>;
}

/** Runs a request that must be refused, and checks that no collection changed because of it. */
async function writesNothing<T>(request: () => Promise<T>): Promise<T> {
  const before = await counts();
  const result = await request();
  expect(await counts()).toEqual(before);
  return result;
}

function expectContractError(
  response: { status: number; body?: Record<string, unknown> },
  status: number,
  code: string,
) {
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
    expectContractError(
      await writesNothing(() => postJson(app.url + path, '{"source": ')),
      400,
      'INVALID_JSON',
    );
  });

  it('answers a body that is not an object with 400', async () => {
    expectContractError(
      await writesNothing(() => postJson(app.url + path, '[1,2]')),
      400,
      'INVALID_INPUT',
    );
  });

  it('answers a bad bearer token with 401 and WWW-Authenticate, writing nothing', async () => {
    const response = await writesNothing(() =>
      postJson(app.url + path, valid, { authorization: 'Bearer pgw_not-a-real-token' }),
    );
    expectContractError(response, 401, 'UNAUTHENTICATED');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await writesNothing(() =>
      httpFetch(app.url + path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(valid),
      }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
    expect(await response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await writesNothing(() =>
      postJson(app.url + path, { source: 'x'.repeat(1_100_000) }),
    );
    expectContractError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await writesNothing(() =>
      httpFetch(app.url + path, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(valid),
      }),
    );
    expectContractError(
      { status: response.status, body: await response.json() },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers a preflight with 204 and CORS headers', async () => {
    const response = await httpFetch(app.url + path, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST,DELETE,OPTIONS');
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
    [
      '/api/track-media',
      { slug: '2026/01/02/t.zip', ext: 'zip', metadata: { totalDuration: 31 } },
      'TAPE_TOO_LONG',
    ],
  ])('%s %j gives %s', async (path, body, code) => {
    expectContractError(await writesNothing(() => postJson(app.url + path, body)), 400, code);
  });

  it('gives the piece syntax error position', async () => {
    const response = await writesNothing(() =>
      postJson(`${app.url}/api/store-piece`, { source: 'export function paint() {\n  let = ;\n}' }),
    );
    expectContractError(response, 400, 'PIECE_SYNTAX');
    expect(response.body).toMatchObject({ code: 'PIECE_SYNTAX', line: 2 });
    expect(response.body?.column).toBeGreaterThan(0);
  });

  it('reports the tape limit', async () => {
    const response = await writesNothing(() =>
      postJson(`${app.url}/api/track-media`, {
        slug: '2026/01/02/t.zip',
        ext: 'zip',
        metadata: { totalDuration: 45 },
      }),
    );
    expectContractError(response, 400, 'TAPE_TOO_LONG');
    expect(response.body).toMatchObject({ code: 'TAPE_TOO_LONG', maxDuration: 30 });
  });

  it('answers a missing media object with 404', async () => {
    expectContractError(
      await writesNothing(() =>
        postJson(`${app.url}/api/track-media`, { slug: '2026/01/02/absent.png', ext: 'png' }),
      ),
      404,
      'MEDIA_NOT_FOUND',
    );
  });

  it('answers an unknown API route with 404', async () => {
    const response = await writesNothing(() => httpFetch(`${app.url}/api/nothing-here`));
    expectContractError({ status: response.status, body: await response.json() }, 404, 'NOT_FOUND');
  });

  it('accepts a POST without a content type as JSON', async () => {
    const body = JSON.stringify({ source: '(wipe red) ; no type' });
    const before = await counts();
    const http = createHttpClient(app.url);
    const { status } = await http.send('/api/store-kidlisp', {
      method: 'POST',
      body,
      contentType: null,
    });
    http.close();
    expect(status).toBe(201);
    expect(await app.db.kidlisp.countDocuments({ source: '(wipe red) ; no type' })).toBe(1);
    const after = await counts();
    expect(after.kidlisp).toBe(before.kidlisp + 1);
    expect({ ...after, kidlisp: before.kidlisp, codes: before.codes }).toEqual(before);
  });
});

describe('when the database is away', () => {
  it('answers 503 with Retry-After, and readyz says so', async () => {
    const own = await startTestApp();
    try {
      await own.mongo.stop();
      const response = await postJson(`${own.url}/api/store-kidlisp`, { source: '(wipe green)' });
      expectContractError(response, 503, 'DB_UNAVAILABLE');
      expect(response.headers.get('retry-after')).toBe('5');
      const ready = await httpFetch(`${own.url}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await own.close().catch(() => {});
    }
  });
});
