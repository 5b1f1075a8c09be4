import { describe, expect, it } from 'vitest';
import { fromAddress, publish, useSeededApp } from './fixtures.js';

// Distinct clients are told apart by X-Forwarded-For from this (trusted, loopback) proxy.
const fixture = useSeededApp({ TRUST_PROXY: 'loopback' });

const errorShape = (code: string) => ({
  error: expect.any(String),
  message: expect.any(String),
  code,
});

describe('GET /api/store-kidlisp', () => {
  it('?code= answers the reference entry, the author handle, and no caching', async () => {
    // Its publisher reading it is the same client: hits stay 1.
    const response = await fixture.http.get(`/api/store-kidlisp?code=${fixture.seeded.kidlisp}`, {
      authorization: `Bearer ${fixture.seeded.makerToken}`,
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      source: '(wipe navy) ; seeded',
      when: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      hits: 1,
      user: fixture.seeded.makerAccount,
      handle: '@maker',
    });
    expect(response.headers['cache-control']).toBe(
      'no-store, no-cache, must-revalidate, max-age=0',
    );
    // Another client (this address, anonymous) is a second hit, once however often it reads.
    for (const _ of [1, 2, 3]) {
      const again = await fixture.http.get(`/api/store-kidlisp?code=${fixture.seeded.kidlisp}`);
      expect(again.json.hits).toBe(2);
    }
  });

  it('?code= of nothing is 404 with the reference sentence in the service shape', async () => {
    const response = await fixture.http.get('/api/store-kidlisp?code=zzzzzz');
    expect(response.status).toBe(404);
    expect(response.json).toEqual({
      ...errorShape('ITEM_NOT_FOUND'),
      error: 'Not found',
      code: 'ITEM_NOT_FOUND',
    });
    // A piece's code is not a KidLisp program.
    expect((await fixture.http.get(`/api/store-kidlisp?code=${fixture.seeded.piece}`)).status).toBe(
      404,
    );
  });

  it('?codes= keeps the order, answers null for a missing code, and sums up', async () => {
    const other = await publish(fixture.http, '/api/store-kidlisp', {
      source: '(wipe red) ; codes',
    });
    for (const query of [
      `codes=${other},nope1,${fixture.seeded.kidlisp}`,
      `codes=${encodeURIComponent(JSON.stringify([other, 'nope1', fixture.seeded.kidlisp]))}`,
    ]) {
      const response = await fixture.http.get(`/api/store-kidlisp?${query}`);
      expect(response.status, query).toBe(200);
      // In the requested order, as far as an object keeps one: JavaScript lists an all-digit
      // key such as "223" (a code can be one) before the others.
      const requested = [other, 'nope1', fixture.seeded.kidlisp];
      expect(Object.keys(response.json.results)).toEqual(
        Object.keys(Object.fromEntries(requested.map((code) => [code, null]))),
      );
      expect(response.json.results.nope1).toBeNull();
      expect(response.json.results[other]).toMatchObject({
        source: '(wipe red) ; codes',
        handle: null,
        user: null,
      });
      expect(response.json.summary).toEqual({
        requested: 3,
        found: 2,
        missing: 1,
        foundCodes: [other, fixture.seeded.kidlisp],
        missingCodes: ['nope1'],
      });
    }
  });

  it('refuses too many codes, a malformed list and an empty one, each in the error shape', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `c${i}`).join(',');
    const cases: [string, string, string][] = [
      [`codes=${many}`, 'TOO_MANY_CODES', 'Too many codes. Maximum 50 per request.'],
      [
        'codes=%5B1%2C2%5D',
        'CODES_INVALID',
        'Invalid codes format. Use comma-separated or JSON array.',
      ],
      [
        'codes=%5Bbroken',
        'CODES_INVALID',
        'Invalid codes format. Use comma-separated or JSON array.',
      ],
      ['codes=,,', 'CODES_INVALID', 'Codes must be a non-empty array'],
      ['', 'CODE_REQUIRED', 'Code or codes parameter required'],
      ['recent=1&limit=101', 'LIMIT_TOO_LARGE', 'limit cannot exceed 100.'],
      ['recent=1&limit=0', 'LIMIT_INVALID', 'limit must be a whole number from 1 to 100.'],
      ['recent=1&limit=ten', 'LIMIT_INVALID', 'limit must be a whole number from 1 to 100.'],
      ['recent=1&sort=best', 'SORT_INVALID', 'sort must be recent or hits.'],
      [
        'recent=1&handle=%40no%20way',
        'HANDLE_INVALID',
        'handle must be a handle such as @jeffrey.',
      ],
      ['code=a&code=b', 'INVALID_INPUT', 'code must be a string.'],
    ];
    for (const [query, code, sentence] of cases) {
      const response = await fixture.http.get(`/api/store-kidlisp?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json, query).toMatchObject({ error: sentence, message: sentence, code });
    }
    expect(
      (await fixture.http.get(`/api/store-kidlisp?codes=${Array(50).fill('x').join(',')}`)).status,
    ).toBe(200);
  });

  it('?recent=1 lists newest first or by hits, with previews, filtered by handle', async () => {
    const long = `(wipe blue) ; ${'a long program '.repeat(4).trim()}`;
    const newest = await publish(fixture.http, '/api/store-kidlisp', { source: long });
    const recent = await fixture.http.get('/api/store-kidlisp?recent=1&limit=2');
    expect(recent.status).toBe(200);
    expect(recent.json.count).toBe(2);
    expect(recent.json.limit).toBe(2);
    expect(recent.json.recent[0]).toEqual({
      code: newest,
      source: long,
      preview: `${long.slice(0, 37)}...`,
      when: expect.any(String),
      hits: 1,
      user: null,
      handle: null,
    });
    // Two more clients read the seeded program: it leads the popular list.
    await fixture.http.get(`/api/store-kidlisp?code=${fixture.seeded.kidlisp}`, fromAddress(1));
    await fixture.http.get(`/api/store-kidlisp?code=${fixture.seeded.kidlisp}`, fromAddress(2));
    const popular = await fixture.http.get('/api/store-kidlisp?recent=1&sort=hits&limit=3');
    expect(popular.json.recent[0]).toMatchObject({ code: fixture.seeded.kidlisp, hits: 4 });
    for (const handle of ['maker', '@maker', '%40maker']) {
      const mine = await fixture.http.get(`/api/store-kidlisp?recent=1&handle=${handle}`);
      expect(mine.json.recent.map((entry: { code: string }) => entry.code)).toEqual([
        fixture.seeded.kidlisp,
      ]);
    }
    const nobody = await fixture.http.get('/api/store-kidlisp?recent=1&handle=nobody');
    expect(nobody.json).toEqual({ recent: [], count: 0, limit: 50 });
  });
});

describe('GET /api/store-clock', () => {
  it('?code= is case-insensitive and answers the melody with its code', async () => {
    const response = await fixture.http.get(
      `/api/store-clock?code=${fixture.seeded.clock.toUpperCase()}`,
      {
        authorization: `Bearer ${fixture.seeded.makerToken}`,
      },
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      code: fixture.seeded.clock,
      source: 'c d e f g',
      when: expect.any(String),
      hits: 1,
      user: fixture.seeded.makerAccount,
      handle: '@maker',
    });
  });

  it('answers 404 "Clock not found", 400 "Missing code parameter", and lists with recent=1', async () => {
    const missing = await fixture.http.get('/api/store-clock?code=zuzu9');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      error: 'Clock not found',
      message: 'Clock not found',
      code: 'ITEM_NOT_FOUND',
    });
    const none = await fixture.http.get('/api/store-clock');
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ ...errorShape('CODE_REQUIRED'), error: 'Missing code parameter' });
    const recent = await fixture.http.get('/api/store-clock?recent=1&sort=hits');
    expect(recent.status).toBe(200);
    expect(recent.json.recent.map((entry: { code: string }) => entry.code)).toEqual([
      fixture.seeded.clock,
    ]);
    expect(recent.json.count).toBe(1);
  });
});

describe('GET /api/piece-metadata', () => {
  it('answers a piece, the defaults for an unknown code, and 400 without a code', async () => {
    const known = await fixture.http.get(`/api/piece-metadata?code=${fixture.seeded.piece}`);
    expect(known.json).toEqual({
      code: fixture.seeded.piece,
      trustLevel: 'untrusted',
      anonymous: false,
      authorSub: fixture.seeded.makerAccount,
      when: expect.any(String),
    });
    const unknown = await fixture.http.get('/api/piece-metadata?code=nothing-here');
    expect(unknown.status).toBe(200);
    expect(unknown.json).toEqual({
      code: 'nothing-here',
      trustLevel: 'untrusted',
      anonymous: true,
    });
    const none = await fixture.http.get('/api/piece-metadata');
    expect(none.status).toBe(400);
    expect(none.json.code).toBe('CODE_REQUIRED');
  });
});

describe('GET /api/items/<code>', () => {
  it('answers every kind with the same facts, clocks as clock~<code>', async () => {
    const base = fixture.app.services.config.publicUrl;
    const expected = {
      [fixture.seeded.kidlisp]: {
        kind: 'kidlisp',
        source: '(wipe navy) ; seeded',
        mediaUrl: null,
        author: '@maker',
      },
      [`clock~${fixture.seeded.clock}`]: {
        kind: 'clock',
        code: fixture.seeded.clock,
        url: `${base}/clock~${fixture.seeded.clock}`,
        source: 'c d e f g',
      },
      [fixture.seeded.piece]: {
        kind: 'piece',
        name: 'Seeded Piece',
        ext: 'mjs',
        mediaUrl: `${base}/${fixture.seeded.piece}.mjs`,
        source: 'export function paint({ wipe }) { wipe(9); }',
      },
      [fixture.seeded.painting]: {
        kind: 'painting',
        ext: 'png',
        mediaUrl: `${base}/${fixture.seeded.painting}.png`,
        source: null,
      },
      [fixture.seeded.tape]: { kind: 'tape', ext: 'mp4', duration: 12.5, author: null },
    };
    for (const [address, facts] of Object.entries(expected)) {
      const response = await fixture.http.get(`/api/items/${address}`);
      expect(response.status, address).toBe(200);
      expect(response.json, address).toMatchObject({ address, when: expect.any(String), ...facts });
    }
    // The bare code of a clock is not in the shared namespace.
    expect((await fixture.http.get(`/api/items/${fixture.seeded.clock}`)).status).toBe(404);
  });

  it('answers 404 ITEM_NOT_FOUND for a code nothing has, and any shape of nonsense', async () => {
    for (const path of [
      '/api/items/nothing',
      '/api/items/clock~',
      '/api/items/%24%7Bx%7D',
      '/api/items/clock~zz%2Fzz',
    ]) {
      const response = await fixture.http.get(path);
      expect(response.status, path).toBe(404);
      expect(response.json.code, path).toBe('ITEM_NOT_FOUND');
    }
  });

  it('needs no token, but answers 401 UNAUTHENTICATED (documented) for one that is not valid', async () => {
    for (const path of [
      `/api/items/${fixture.seeded.kidlisp}`,
      `/api/store-kidlisp?code=${fixture.seeded.kidlisp}`,
    ]) {
      const response = await fixture.http.get(path, { authorization: 'Bearer not-a-token' });
      expect(response.status, path).toBe(401);
      expect(response.json, path).toEqual(errorShape('UNAUTHENTICATED'));
    }
  });
});

describe('one path, two methods', () => {
  it('serves GET and POST /api/store-kidlisp and answers 405 naming both to anything else', async () => {
    for (const path of ['/api/store-kidlisp', '/api/store-clock']) {
      const response = await fixture.http.send(path, { method: 'PUT', body: {} });
      expect(response.status, path).toBe(405);
      expect(response.headers.allow, path).toBe('GET, POST, OPTIONS');
      expect(response.json.code).toBe('METHOD_NOT_ALLOWED');
    }
    const items = await fixture.http.send(`/api/items/${fixture.seeded.kidlisp}`, {
      method: 'POST',
      body: {},
    });
    expect(items.status).toBe(405);
    expect(items.headers.allow).toBe('DELETE, GET, OPTIONS');
  });
});

describe('the documented read limits', () => {
  it('are the limits the routes enforce', async () => {
    const docs = await fixture.http.get('/api', { accept: 'application/json' });
    const limits = docs.json.limits as { appliesTo: string; value: number }[];
    const codes = limits.find((limit) => limit.appliesTo.includes('codes='))?.value as number;
    const listed = limits.find((limit) => limit.appliesTo.includes('recent=1'))?.value as number;
    const list = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`).join(',');
    expect((await fixture.http.get(`/api/store-kidlisp?codes=${list(codes)}`)).status).toBe(200);
    expect((await fixture.http.get(`/api/store-kidlisp?codes=${list(codes + 1)}`)).json.code).toBe(
      'TOO_MANY_CODES',
    );
    for (const path of ['/api/store-kidlisp', '/api/store-clock']) {
      expect((await fixture.http.get(`${path}?recent=1&limit=${listed}`)).status, path).toBe(200);
      expect((await fixture.http.get(`${path}?recent=1&limit=${listed + 1}`)).json.code, path).toBe(
        'LIMIT_TOO_LARGE',
      );
    }
  });
});
