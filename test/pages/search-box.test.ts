import { describe, expect, it } from 'vitest';
import { createAuthor, publish, useSeededApp } from '../items/fixtures.js';

const fixture = useSeededApp();

/** The codes of a listing page's cards, in page order. */
const cardCodes = (page: string) => [...page.matchAll(/data-code="([^"]+)"/g)].map((m) => m[1]);
const linkOf = (page: string, rel: string) =>
  new RegExp(`<a rel="${rel}" href="([^"]+)"`).exec(page)?.[1]?.replaceAll('&amp;', '&');
/** The value the search box holds, as the page sends it (HTML-escaped). */
const boxValue = (page: string) => /<input id="search-term"[^>]*value="([^"]*)"/.exec(page)?.[1];
const excerpts = (page: string) =>
  [...page.matchAll(/<p class="excerpt">([\s\S]*?)<\/p>/g)].map((m) => m[1] ?? '');

const search = (path: string, term: string, extra: Record<string, string> = {}) =>
  fixture.http.get(`${path}?${new URLSearchParams({ search: term, ...extra })}`);

describe('the home page\u2019s search box', () => {
  it('is a plain GET form to /, and a blank term shows the home page as it is', async () => {
    const home = await fixture.http.get('/?search=%20%20');
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/<form class="search-form" role="search" method="get" action="\/">/);
    expect(home.text).toContain('name="search"');
    expect(boxValue(home.text)).toBe('');
    expect(home.text).toContain('class="sort-tabs"');
    expect(home.text).not.toContain('<script');
  });

  it('finds nothing clearly, the term kept in the box', async () => {
    const term = `nothing-holds-this-${Date.now()}`;
    const page = await search('/', term);
    expect(page.status).toBe(200);
    expect(cardCodes(page.text)).toEqual([]);
    expect(page.text).toContain(`Nothing found for \u201c${term}\u201d.`);
    expect(boxValue(page.text)).toBe(term);
    expect(page.text).not.toContain('rel="next"');
  });

  it('pages 30 matches 24 at a time with the search\u2019s cursors, each with its excerpt, no gap or duplicate', async () => {
    const term = `pagedterm${Date.now()}`;
    const codes: string[] = [];
    for (let i = 0; i < 30; i++)
      codes.push(
        await publish(fixture.http, '/api/store-kidlisp', { source: `(wipe ${i}) ; ${term} ${i}` }),
      );
    await publish(fixture.http, '/api/store-kidlisp', { source: '(wipe 1) ; an unrelated work' });

    const first = await search('/', term.toUpperCase());
    expect(first.status).toBe(200);
    const firstCodes = cardCodes(first.text);
    expect(firstCodes).toHaveLength(24);
    // Same hits, so newest first: the last published on top.
    expect(firstCodes).toEqual([...codes].reverse().slice(0, 24));
    expect(boxValue(first.text)).toBe(term.toUpperCase());
    expect(excerpts(first.text)).toHaveLength(24);
    for (const excerpt of excerpts(first.text)) expect(excerpt).toContain(`<mark>${term}</mark>`);
    expect(linkOf(first.text, 'prev')).toBeUndefined();

    const next = linkOf(first.text, 'next');
    expect(next).toMatch(/^\/\?search=.*&cursor=/);
    const second = await fixture.http.get(next as string);
    expect(second.status).toBe(200);
    const secondCodes = cardCodes(second.text);
    expect(secondCodes).toEqual([...codes].reverse().slice(24));
    expect(linkOf(second.text, 'next')).toBeUndefined();
    expect(boxValue(second.text)).toBe(term.toUpperCase());

    const back = await fixture.http.get(linkOf(second.text, 'prev') as string);
    expect(cardCodes(back.text)).toEqual(firstCodes);
  });

  it('says on the page that a term over 200 characters is too long (400, no raw error); 200 are searched', async () => {
    const long = 'x'.repeat(201);
    const page = await search('/', long);
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('The search term is longer than 200 characters.');
    expect(page.text).toContain('Shorten it and search again.');
    expect(boxValue(page.text)).toBe(long);
    expect(page.text).not.toContain('"code"');
    expect(page.text).not.toMatch(/at .*\.(ts|js):\d+/);
    // The form and the chat column are still there.
    expect(page.text).toContain('class="search-form"');
    expect(page.text).toContain('href="/chat"');

    const longest = await search('/', 'x'.repeat(200));
    expect(longest.status).toBe(200);
    expect(longest.text).toContain(`Nothing found for \u201c${'x'.repeat(200)}\u201d.`);
  });

  it('a bad cursor is the error page, not results', async () => {
    const page = await search('/', 'wipe', { cursor: 'not-a-cursor' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('cursor');
    expect(cardCodes(page.text)).toEqual([]);
  });
});

describe('an author page\u2019s search box', () => {
  it('searches only that author\u2019s works', async () => {
    const term = `authorterm${Date.now()}`;
    const [ada, bo] = await Promise.all([
      createAuthor(fixture.app, 'searchada'),
      createAuthor(fixture.app, 'searchbo'),
    ]);
    const adaWorks = [
      await publish(
        fixture.http,
        '/api/store-kidlisp',
        { source: `(wipe red) ; ${term}` },
        ada.auth,
      ),
      await publish(fixture.http, '/api/store-clock', { source: `c d e ; ${term}` }, ada.auth),
    ];
    await publish(
      fixture.http,
      '/api/store-kidlisp',
      { source: '(wipe blue) ; ada only' },
      ada.auth,
    );
    const boWork = await publish(
      fixture.http,
      '/api/store-kidlisp',
      { source: `(wipe lime) ; ${term}` },
      bo.auth,
    );

    const page = await search('/@searchada', term);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<form class="search-form" role="search" method="get" action="\/@searchada">/,
    );
    expect(cardCodes(page.text)).toEqual([...adaWorks].reverse());
    expect(cardCodes(page.text)).not.toContain(boWork);
    expect(page.text).toContain('3 works');

    const everyone = await search('/', term);
    expect(cardCodes(everyone.text)).toEqual([boWork, ...[...adaWorks].reverse()]);
  });
});
