import { describe, expect, it } from 'vitest';
import { isFresh } from '../../src/http/conditional.js';
import { useSeededApp } from '../items/fixtures.js';

const fixture = useSeededApp();

/**
 * Node's own fetch (undici) adds `Cache-Control: no-cache` to every request carrying
 * If-None-Match: the service must answer 304 all the same (RFC 9110, 13.2.1).
 */
async function conditionalFetch(path: string, accept?: string) {
  const url = `${fixture.app.url}${path}`;
  const headers: Record<string, string> = accept ? { accept } : {};
  const first = await fetch(url, { headers });
  expect(first.status, path).toBe(200);
  await first.arrayBuffer();
  const etag = first.headers.get('etag');
  expect(etag, `${path} has an ETag`).toBeTruthy();
  const again = await fetch(url, { headers: { ...headers, 'if-none-match': etag as string } });
  return { etag, again, text: await again.text() };
}

describe("Node's fetch with If-None-Match", () => {
  it.each([
    ['/feed.atom'],
    ['/feed.json'],
    ['/@maker/feed.atom'],
    ['/@maker/feed.json'],
  ])('gets 304 from %s', async (path) => {
    const { etag, again, text } = await conditionalFetch(path);
    expect(again.status).toBe(304);
    expect(text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('gets 304 from the home page, an author page, a viewer page and a REST read', async () => {
    const { seeded } = fixture;
    for (const [path, accept] of [
      ['/', 'text/html'],
      ['/@maker', 'text/html'],
      [`/${seeded.kidlisp}`, 'text/html'],
      [`/${seeded.kidlisp}`, 'text/html'], // now replayed from the view cache, before express
      [`/api/items/${seeded.kidlisp}`, undefined],
      [`/clock~${seeded.clock}`, 'text/html'],
    ] as const) {
      const { again } = await conditionalFetch(path, accept);
      expect(again.status, path).toBe(304);
    }
  });

  it('gets the whole answer when the tag no longer matches', async () => {
    const url = `${fixture.app.url}/feed.json`;
    const stale = await fetch(url, { headers: { 'if-none-match': '"not-this-one"' } });
    expect(stale.status).toBe(200);
    expect((await stale.json()).items.length).toBeGreaterThan(0);
  });
});

describe('isFresh, the one judge of a conditional request', () => {
  it('compares weakly, reads lists and *, and ignores the request Cache-Control', () => {
    const response = { etag: '"abc"' };
    const noCache = { 'cache-control': 'no-cache' };
    expect(isFresh({ ...noCache, 'if-none-match': '"abc"' }, response)).toBe(true);
    expect(isFresh({ 'if-none-match': 'W/"abc"' }, response)).toBe(true);
    expect(isFresh({ 'if-none-match': '"x", W/"abc"' }, { etag: 'W/"abc"' })).toBe(true);
    expect(isFresh({ 'if-none-match': '*' }, response)).toBe(true);
    expect(isFresh({ 'if-none-match': '"abd"' }, response)).toBe(false);
    // If-None-Match decides alone when present, even with a date that would hold.
    const modified = { ...response, 'last-modified': 'Tue, 01 Sep 2026 00:00:00 GMT' };
    expect(
      isFresh(
        { 'if-none-match': '"other"', 'if-modified-since': 'Wed, 02 Sep 2026 00:00:00 GMT' },
        modified,
      ),
    ).toBe(false);
    expect(isFresh({ 'if-modified-since': 'Wed, 02 Sep 2026 00:00:00 GMT' }, modified)).toBe(true);
    expect(isFresh({ 'if-modified-since': 'Mon, 31 Aug 2026 00:00:00 GMT' }, modified)).toBe(false);
    expect(isFresh({}, response)).toBe(false);
  });
});
