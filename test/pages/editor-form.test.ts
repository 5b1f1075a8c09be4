import { describe, expect, it } from 'vitest';
import { isReservedCode } from '../../src/domain/codes.js';
import { publish, useSeededApp } from '../items/fixtures.js';

const fixture = useSeededApp();

const FORM = 'application/x-www-form-urlencoded';
const sameOrigin = { 'sec-fetch-site': 'same-origin' };

/** The no-script form's post, as a browser sends it. */
const postForm = (fields: Record<string, string>, headers: Record<string, string> = sameOrigin) =>
  fixture.http.send('/new', {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    contentType: FORM,
    headers: { accept: 'text/html', ...headers },
  });

const decode = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
const textareaOf = (page: string) =>
  decode(/<textarea[^>]*>([\s\S]*?)<\/textarea>/.exec(page)?.[1] ?? '');

describe('GET /new', () => {
  it('is a form that works without scripts: a labelled textarea, a Publish button, posting to /new', async () => {
    const page = await fixture.http.get('/new', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form [^>]*method="post" action="\/new"/);
    expect(page.text).toContain('<label for="source" id="source-label">KidLisp source</label>');
    expect(page.text).toMatch(/<textarea id="source" name="source"/);
    expect(page.text).toContain('<button type="submit" id="publish">Publish</button>');
    expect(textareaOf(page.text)).toContain('(wipe navy)');
    // One canvas (the preview); strict policy: no inline script or style, scripts from this origin.
    expect(page.text.match(/<canvas/g)).toHaveLength(1);
    expect(page.text).not.toMatch(/<script(?![^>]*(src=|type="application\/json"))/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("style-src 'self';");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers['cache-control']).toBe('no-store');
    const put = await fixture.http.send('/new', { method: 'PUT', body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, OPTIONS');
  });

  it('?remix=<code> opens the work’s source and says what it remixes; an unknown code is a 404 page', async () => {
    const source = '(wipe maroon)\n(ink white)\n(line 0 0 255 255)';
    const code = await publish(fixture.http, '/api/store-kidlisp', { source });
    const page = await fixture.http.get(`/new?remix=${code}`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(textareaOf(page.text)).toBe(source);
    expect(page.text).toContain(`Remix of <a href="/${code}">$${code}</a>`);
    expect(page.text).toContain(`<input type="hidden" name="remixOf" value="${code}">`);

    const dollar = await fixture.http.get(`/new?remix=$${code}`, { accept: 'text/html' });
    expect(textareaOf(dollar.text)).toBe(source);

    const missing = await fixture.http.get('/new?remix=zzzzzz9', { accept: 'text/html' });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('There is no KidLisp work zzzzzz9 to remix.');
  });

  it('?kind=clock edits a melody; a melody’s page links "Remix" to it', async () => {
    const melody = await publish(fixture.http, '/api/store-clock', { source: 'c d e f g' });
    const clockPage = await fixture.http.get(`/clock~${melody}`, { accept: 'text/html' });
    expect(clockPage.text).toContain(`href="/new?kind=clock&amp;remix=${melody}">Remix</a>`);
    const page = await fixture.http.get(`/new?kind=clock&remix=${melody}`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(textareaOf(page.text)).toBe('c d e f g');
    expect(page.text).toContain(`value="clock~${melody}"`);
    expect(page.text).toContain('<button type="button" id="play">Play</button>');
  });
});

describe('POST /new (the form without scripts)', () => {
  it('publishes through the same operation as POST /api/store-kidlisp and answers 303 to the work', async () => {
    const source = '(wipe teal)\n(ink orange)\n(box 8 8 64 64) ; posted by a form';
    const response = await postForm({ kind: 'kidlisp', source });
    expect(response.status).toBe(303);
    const code = String(response.headers.location).slice(1);
    expect(response.headers.location).toMatch(/^\/[a-z0-9]+$/);
    // The same source through the API is the same work (deduplicated by the one operation).
    const again = await fixture.http.post('/api/store-kidlisp', { source });
    expect(again.json).toMatchObject({ code, cached: true });
    const page = await fixture.http.get(`/${code}`, { accept: 'text/html' });
    expect(page.text).toContain('posted by a form');
  });

  it('publishes a remix with remixOf, and a melody to its clock~ page', async () => {
    const parent = await publish(fixture.http, '/api/store-kidlisp', { source: '(wipe olive)' });
    const remix = await postForm({
      kind: 'kidlisp',
      source: '(wipe olive)\n(ink red)',
      remixOf: parent,
    });
    expect(remix.status).toBe(303);
    const page = await fixture.http.get(String(remix.headers.location), { accept: 'text/html' });
    expect(page.text).toMatch(
      new RegExp(`remix of <a rel="related" href="/${parent}">\\$${parent}</a>`),
    );

    const melody = await postForm(
      { kind: 'clock', source: 'a b c ; form' },
      { origin: fixture.app.url },
    );
    expect(melody.status).toBe(303);
    expect(String(melody.headers.location)).toMatch(/^\/clock~[a-z0-9]+$/);
  });

  it('says the server’s validation error on the form again, with the text kept', async () => {
    const empty = await postForm({ kind: 'kidlisp', source: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(
      /<p class="publish-failure" role="alert" id="publish-failure">[^<]*source/i,
    );
    expect(empty.text).toMatch(/<textarea[^>]*>\s*<\/textarea>/);

    const tooLong = await postForm({ kind: 'kidlisp', source: `(wipe red)${' '.repeat(50_001)}` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('publish-failure');

    const orphan = await postForm({ kind: 'kidlisp', source: '(wipe lime)', remixOf: 'zzzzzz9' });
    expect(orphan.status).toBe(404);
    expect(orphan.text).toContain('publish-failure');
    expect(textareaOf(orphan.text)).toBe('(wipe lime)');
  });

  it('refuses a post from another site (cross-site request forgery) with 403, and publishes nothing', async () => {
    const source = '(wipe black) ; forged';
    const forged: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      {},
    ];
    for (const headers of forged) {
      const response = await postForm({ kind: 'kidlisp', source }, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.text).toContain('only publishes when it is sent from its own page');
    }
    const check = await fixture.http.post('/api/store-kidlisp', { source });
    expect(check.status).toBe(201);
  });
});

describe('the reserved word `new`', () => {
  it('is reserved, so no published code can shadow /new: a piece named "New" gets another code', async () => {
    expect(isReservedCode('new')).toBe(true);
    const code = await publish(fixture.http, '/api/store-piece', {
      name: 'New',
      source: 'export function paint({ wipe }) { wipe(1); }',
    });
    expect(code).not.toBe('new');
    expect((await fixture.http.get('/new', { accept: 'text/html' })).text).toContain(
      '<h1>New KidLisp</h1>',
    );
  });
});
