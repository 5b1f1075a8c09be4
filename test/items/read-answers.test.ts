import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../support/http-client.js';
import { type Seeded, useSeededApp } from './fixtures.js';

const fixture = useSeededApp();

/** Everything a client sees of an answer but the time it was sent. */
const seen = ({ status, headers, text }: RawResponse) => {
  const { date: _date, ...rest } = headers;
  return { status, headers: rest, text };
};

describe('a REST read answers the same however it is asked', () => {
  // A plain GET and one whose If-None-Match matches nothing must get the same full answer:
  // status, every header (security, CORS, caching, ETag) and bytes.
  it.each([
    ['a program by code', (s: Seeded) => `/api/store-kidlisp?code=${s.kidlisp}`],
    ['programs by codes', (s: Seeded) => `/api/store-kidlisp?codes=${s.kidlisp},zzzzzz`],
    ['the recent list', () => '/api/store-kidlisp?recent=1&limit=3&sort=hits'],
    ['a missing program', () => '/api/store-kidlisp?code=zzzzzz'],
    ['no parameter', () => '/api/store-kidlisp'],
    ['a parameter given twice', (s: Seeded) => `/api/store-kidlisp?code=${s.kidlisp}&code=x`],
    ['a limit too large', () => '/api/store-kidlisp?recent=1&limit=500'],
    ['a melody', (s: Seeded) => `/api/store-clock?code=${s.clock}`],
    ['piece metadata', (s: Seeded) => `/api/piece-metadata?code=${s.piece}`],
    ['an item', (s: Seeded) => `/api/items/${s.painting}`],
    ['a missing item', () => '/api/items/zzzzzz'],
  ])('%s', async (_name, pathOf) => {
    const path = pathOf(fixture.seeded);
    // Read once first, so both answers below count the same (already counted) hit.
    await fixture.http.get(path);
    const plain = await fixture.http.get(path);
    const conditional = await fixture.http.get(path, { 'if-none-match': '"matches-nothing"' });
    expect(seen(plain)).toEqual(seen(conditional));
    expect(plain.headers['content-security-policy']).toBeDefined();
    expect(plain.headers['access-control-allow-origin']).toBe('*');
    expect(plain.headers.etag).toMatch(/^W\/"[0-9a-f]+-/);
  });
});
