import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { pngPixel } from '../e2e/support/pixels.js';
import { createAuthor, publish, useSeededApp } from '../items/fixtures.js';

const ATOM = 'http://www.w3.org/2005/Atom';
const fixture = useSeededApp();

/** The codes of a listing page's cards, in page order. */
const cardCodes = (page: string) => [...page.matchAll(/data-code="([^"]+)"/g)].map((m) => m[1]);
const linkOf = (page: string, rel: string) =>
  new RegExp(`<a rel="${rel}" href="([^"]+)"`).exec(page)?.[1]?.replaceAll('&amp;', '&');

/** Two authors, each with works of their own, published one after another (newest last). */
async function twoAuthors(prefix: string) {
  const { http } = fixture;
  const [ada, bo] = await Promise.all([
    createAuthor(fixture.app, `${prefix}ada`),
    createAuthor(fixture.app, `${prefix}bo`),
  ]);
  const adaWorks = [];
  for (const color of ['red', 'lime', 'blue'])
    adaWorks.push(
      await publish(
        http,
        '/api/store-kidlisp',
        { source: `(wipe ${color}) ; ${prefix}` },
        ada.auth,
      ),
    );
  const boWork = await publish(http, '/api/store-clock', { source: `c e g ; ${prefix}` }, bo.auth);
  return { adaHandle: `@${prefix}ada`, adaWorks, boHandle: `@${prefix}bo`, boWork };
}

describe('the Atom feed', () => {
  it('parses as XML in the Atom namespace, newest first, each entry with link, kind, author, date and thumbnail', async () => {
    const { adaWorks, adaHandle } = await twoAuthors('atom');
    const response = await fixture.http.get('/feed.atom');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const errors: string[] = [];
    const document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(response.text, 'application/xml');
    expect(errors).toEqual([]);
    const feed = document.documentElement;
    expect(feed?.localName).toBe('feed');
    expect(feed?.namespaceURI).toBe(ATOM);
    const entries = Array.from(document.getElementsByTagNameNS(ATOM, 'entry'));
    const text = (entry: Element, name: string) =>
      entry.getElementsByTagNameNS(ATOM, name)[0]?.textContent ?? '';
    const publishedTimes = entries.map((entry) => Date.parse(text(entry, 'published')));
    expect(publishedTimes).toEqual([...publishedTimes].sort((a, b) => b - a));
    const { publicUrl } = fixture.app.services.config;
    const newest = entries[1] as Element; // entries[0] is @atombo's melody, published last
    expect(newest.getElementsByTagNameNS(ATOM, 'link')[0]?.getAttribute('href')).toBe(
      `${publicUrl}/$${adaWorks[2]}`,
    );
    expect(newest.getElementsByTagNameNS(ATOM, 'category')[0]?.getAttribute('term')).toBe(
      'kidlisp',
    );
    expect(text(newest, 'name')).toBe(adaHandle);
    const thumbnail = newest.getElementsByTagNameNS(
      'http://search.yahoo.com/mrss/',
      'thumbnail',
    )[0];
    expect(thumbnail?.getAttribute('url')).toBe(`${publicUrl}/thumbnail/${adaWorks[2]}.png`);
    expect(entries.map((entry) => text(entry, 'id')).slice(1, 4)).toEqual(
      [...adaWorks].reverse().map((code) => `${publicUrl}/$${code}`),
    );
  });
});

describe('the JSON feed', () => {
  it('has JSON Feed 1.1\u2019s required fields; an author\u2019s feed holds only their works', async () => {
    const { adaHandle, adaWorks, boWork } = await twoAuthors('json');
    const response = await fixture.http.get('/feed.json');
    expect(response.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const feed = response.json;
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(Array.isArray(feed.items)).toBe(true);
    for (const item of feed.items) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_text === 'string' || typeof item.content_html === 'string').toBe(
        true,
      );
    }
    expect(feed.items[0]._work).toEqual({ kind: 'clock', code: boWork });

    const own = (await fixture.http.get(`/${adaHandle}/feed.json`)).json;
    expect(own.items.map((item: { _work: { code: string } }) => item._work.code)).toEqual(
      [...adaWorks].reverse(),
    );
    expect(own.items[0].authors).toEqual([
      { name: adaHandle, url: `${fixture.app.services.config.publicUrl}/${adaHandle}` },
    ]);
    const unknown = await fixture.http.get('/@nobody-here/feed.json', {
      accept: 'application/json',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('AUTHOR_NOT_FOUND');
  });
});

describe('conditional requests of a feed', () => {
  it('answer 304 to If-None-Match and If-Modified-Since while nothing new is published, 200 after', async () => {
    const first = await fixture.http.get('/feed.atom');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"/);
    expect(Date.parse(lastModified)).not.toBeNaN();
    const byTag = await fixture.http.get('/feed.atom', { 'if-none-match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.text).toBe('');
    const byDate = await fixture.http.get('/feed.json', { 'if-modified-since': lastModified });
    expect(byDate.status).toBe(304);

    // The home page likewise; a parameter it does not read makes no other page.
    const home = await fixture.http.get('/', { accept: 'text/html' });
    expect(home.headers['cache-control']).toBe('no-cache');
    const other = await fixture.http.get('/?utm_source=x', {
      accept: 'text/html',
      'if-none-match': home.headers.etag as string,
    });
    expect(other.status).toBe(304);
    // Asked again, the kept page is replayed before express with the same bytes and headers.
    const again = await fixture.http.get('/', { accept: 'text/html' });
    expect(again.text).toBe(home.text);
    for (const header of ['etag', 'content-type', 'content-security-policy', 'cache-control'])
      expect(again.headers[header], header).toBe(home.headers[header]);

    await publish(fixture.http, '/api/store-kidlisp', { source: '(wipe teal) ; conditional' });
    const changed = await fixture.http.get('/feed.atom', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('a .lisp piece', () => {
  it('has a drawn thumbnail like a KidLisp program, shown on the home page and named by its feed entry', async () => {
    // A reference-layout record: the file in storage under its slug, `ext: 'lisp'`.
    const code = 'lime-lisp';
    const slug = '2026/08/03/lime-lisp.lisp';
    await fixture.app.services.storage.put(slug, Buffer.from('(wipe lime)'), 'text/plain');
    await fixture.app.db.pieces.insertOne({ code, slug, ext: 'lisp', when: new Date() });
    const thumbnail = await fetch(`${fixture.app.url}/thumbnail/${code}.png`);
    expect(thumbnail.status).toBe(200);
    expect(await pngPixel(Buffer.from(await thumbnail.arrayBuffer()), 128, 128)).toEqual([
      0, 255, 0, 255,
    ]);
    const home = await fixture.http.get('/', { accept: 'text/html' });
    expect(home.text).toMatch(
      new RegExp(`<img class="picture" src="/thumbnail/${code}\\.png(\\?v=[\\w-]{16})?"`),
    );
    const entry = (await fixture.http.get('/feed.json')).json.items.find(
      (item: { _work: { code: string } }) => item._work.code === code,
    );
    expect(entry.image).toBe(`${fixture.app.services.config.publicUrl}/thumbnail/${code}.png`);
  });
});

describe('an author page', () => {
  it('lists only the author\u2019s works, newest first, with how many there are; an unknown handle is a 404 page', async () => {
    const { adaHandle, adaWorks } = await twoAuthors('page');
    const page = await fixture.http.get(`/${adaHandle}`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(cardCodes(page.text)).toEqual([...adaWorks].reverse());
    expect(page.text).toContain('<span class="work-count">3 works</span>');
    expect(page.text).toContain(
      `<link rel="alternate" type="application/atom+xml" href="/${adaHandle}/feed.atom"`,
    );
    const unknown = await fixture.http.get('/@nobody-here', { accept: 'text/html' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    expect(unknown.text).toContain('No author has the handle @nobody-here.');
  });
});

describe('the home page', () => {
  it('pages through every work with the read side\u2019s cursors, without a gap or a repeat', async () => {
    for (let i = 0; i < 26; i++)
      await publish(fixture.http, '/api/store-kidlisp', {
        source: `(wipe ${i} ${i} ${i}) ; paging`,
      });
    const seen: string[] = [];
    let path: string | undefined = '/';
    while (path) {
      const page = await fixture.http.get(path, { accept: 'text/html' });
      expect(page.status).toBe(200);
      const codes = cardCodes(page.text);
      expect(codes.length).toBeLessThanOrEqual(24);
      seen.push(...(codes as string[]));
      path = linkOf(page.text, 'next');
    }
    const all = (await fixture.http.get('/feed.json')).json.items.length as number;
    expect(all).toBe(Math.min(50, seen.length));
    expect(new Set(seen).size).toBe(seen.length);
    const { seeded } = fixture;
    for (const code of [seeded.kidlisp, seeded.clock, seeded.piece, seeded.painting, seeded.tape])
      expect(seen).toContain(code);

    // Back from the second page: the first page again.
    const second = await fixture.http.get(
      linkOf((await fixture.http.get('/')).text, 'next') as string,
    );
    const back = await fixture.http.get(linkOf(second.text, 'prev') as string);
    expect(cardCodes(back.text)).toEqual(seen.slice(0, 24));
    const bad = await fixture.http.get('/?after=nonsense', { accept: 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('CURSOR_INVALID');
  });
});
