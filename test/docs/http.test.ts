import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiToken, issueKey } from '../../src/auth/api-tokens.js';
import { routeTable } from '../../src/http/routes/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, httpFetch } from '../support/http-client.js';
import { documentedRoutes, servedRoutes } from './routes.js';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  // The items the read examples name (k7x, bako), with sources no publish example sends.
  const when = new Date('2026-08-03T12:00:00.000Z');
  const record = (code: string, source: string) => ({
    code,
    source,
    hash: `example-${code}`,
    when,
    lastAccessed: when,
    hits: 3,
  });
  await app.db.kidlisp.insertOne(record('k7x', '(wipe navy) ; the example'));
  await app.db.clocks.insertOne(record('bako', 'c e g ; the example'));
  // The author the page examples name (/@jeffrey), with that program.
  await app.db.handles.insertOne({ _id: 'example-account', handle: 'jeffrey' });
  await app.db.kidlisp.updateOne({ code: 'k7x' }, { $set: { user: 'example-account' } });
  // The work the delete example takes down, and the token ($TOKEN) of its account.
  await app.db.kidlisp.insertOne({
    ...record('w3d', '(wipe red) ; the example to delete'),
    user: 'example-account',
  });
  token = (await createApiToken(app.db, { handle: 'jeffrey', account: 'example-account' })).token;
});

afterAll(async () => {
  await app?.close();
});

const get = (path: string, accept?: string) =>
  httpFetch(`${app.url}${path}`, { headers: accept ? { accept } : {} });

describe('GET /api and its aliases', () => {
  it.each([
    '/api',
    '/api/docs',
    '/api/api-docs',
  ])('%s answers JSON to API clients and HTML to browsers', async (path) => {
    const json = await get(path, 'application/json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toMatchObject({
      version: '1.1.0',
      updated: '2026-08-03',
      baseURL: app.services.config.publicUrl,
    });

    const page = await get(path, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toContain('<h1>Publishing and Chat-Reading API</h1>');
    expect(html).toContain('/api/store-kidlisp');
    expect(html).toContain('service://items/{code}');
    expect(html).not.toMatch(/<script>/);
  });

  it('?format= overrides the Accept header', async () => {
    const reference = await (await get('/api', 'application/json')).json();
    const json = await get('/api?format=json', 'text/html');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual(reference);

    const html = await get('/api?format=html', 'application/json');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await html.text();
    expect(text).toContain('<h1>Publishing and Chat-Reading API</h1>');
    expect(text).toContain('/api/store-kidlisp');
  });

  it('/api-docs.json is JSON even for a browser', async () => {
    const reference = await (await get('/api', 'application/json')).json();
    const response = await get('/api-docs.json', 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({
      title: 'Publishing and Chat-Reading API',
      version: '1.1.0',
      updated: '2026-08-03',
      baseURL: app.services.config.publicUrl,
    });
    expect(body).toEqual(reference);
  });

  it('answers 405 with the error shape to another method', async () => {
    const response = await httpFetch(`${app.url}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      error: expect.any(String),
      message: expect.any(String),
    });
  });
});

describe('GET /api/openapi.json', () => {
  it('serves a valid OpenAPI 3.1 document for this base URL', async () => {
    const response = await get('/api/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; servers: { url: string }[] };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toBe(app.services.config.publicUrl);
    expect((await validate(document as never)).valid).toBe(true);
  });
});

describe('the route table, asked over HTTP', () => {
  it('serves every documented route, and answers 405 to the other method on each path', async () => {
    const http = createHttpClient(app.url);
    try {
      const { served, other } = await servedRoutes(http);
      expect(served).toEqual(documentedRoutes());
      expect(new Set(other)).toEqual(new Set([405]));
    } finally {
      http.close();
    }
  });
});

/** A key of a member who holds the key an example names (`/api/keys/<id>`), for the routes that need an account. */
async function memberKey(path: string): Promise<string> {
  const account = 'docs|member';
  const { key } = await issueKey(app.db, { account, scopes: ['publish', 'keys'] });
  const named = /^\/api\/keys\/(key_\w+)$/.exec(path)?.[1];
  if (named) {
    const { record } = await issueKey(app.db, { account, scopes: ['publish'] });
    await app.db.apiTokens.updateOne({ _id: record._id }, { $set: { id: named } });
  }
  return key;
}

describe('the documented examples, run against the service', () => {
  const specs = routeTable('');
  const cases = specs.flatMap((spec) =>
    spec.examples.map((example) => ({ name: `${spec.path}: ${example.title}`, spec, example })),
  );

  it.each(cases)('$name', async ({ spec, example }) => {
    const { request } = example;
    if (request.path === '/api/track-media') {
      const body = request.body as { slug: string };
      await app.services.storage.put(
        body.slug,
        Buffer.from('89504e470d0a1a0a', 'hex'),
        'image/png',
      );
    }
    const query = new URLSearchParams(
      Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]),
    );
    // The keys routes act for a member of their own; the others (the delete example) for the
    // account that owns the example's work ($TOKEN).
    const member = request.path.startsWith('/api/keys') ? await memberKey(request.path) : undefined;
    const bearer = member ?? (request.withToken ? token : undefined);
    const response = await httpFetch(`${app.url}${request.path}${query.size ? `?${query}` : ''}`, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
    if (example.response.status === 204) {
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      return;
    }
    if (request.stream) {
      // The stream opens (and would stay open): its status and type are what the docs say.
      expect(response.status).toBe(example.response.status);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await response.body?.cancel();
      spec.response.schema.parse(example.response.body);
      return;
    }
    expect(response.status).toBe(example.response.status);
    const contentType = response.headers.get('content-type') ?? '';
    expect(spec.response.contentTypes ?? ['application/json']).toContain(contentType.split(';')[0]);
    if (!contentType.includes('json')) {
      // A page or an Atom feed: text of the documented type.
      spec.response.schema.parse(await response.text());
      return;
    }
    const body = await response.json();
    spec.response.schema.parse(body);
    // The documented response fields are exactly what comes back (nothing undocumented).
    if (spec.response.schema instanceof z.ZodObject && spec.response.descriptions) {
      expect(Object.keys(body).sort()).toEqual(Object.keys(example.response.body as object).sort());
    }
  });
});
