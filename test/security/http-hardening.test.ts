import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toolErrorSchema } from '../../src/operations/assistant-catalog.js';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

describe('over plain http (the default PUBLIC_URL)', () => {
  let app: TestApp;
  let client: HttpClient;
  let errorLogs: ReturnType<typeof vi.spyOn>;
  beforeAll(async () => {
    app = await startTestApp();
    client = createHttpClient(app.url);
    errorLogs = vi.spyOn(app.services.logger, 'error');
  });
  afterAll(async () => {
    client.close();
    await app.close();
  });

  it.each([
    '/%ff',
    '/$%ff',
    '/clock~%ff',
    '/mcp%ff',
    '/api/chat-messages%ff',
    '/graphql/%ff',
    '/%e2%82',
  ])('answers the malformed path %s with 400 in the error shape and logs no error', async (path) => {
    for (const method of ['GET', 'POST']) {
      const response = await client.send(path, { method, headers: { accept: 'text/html' } });
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json).toMatchObject({ code: 'PATH_INVALID', error: expect.any(String) });
    }
    expect(errorLogs).not.toHaveBeenCalled();
  });

  it('still serves well-formed percent-encoding', async () => {
    const response = await client.get('/%24nothing-here', { accept: 'application/json' });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'NOT_FOUND' });
  });

  it.each([
    '/healthz',
    '/api/docs',
    '/nothing-here',
    '/api/nothing',
  ])('sends neither HSTS nor upgrade-insecure-requests on %s', async (path) => {
    const response = await client.get(path);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(String(response.headers['content-security-policy'] ?? '')).not.toContain(
      'upgrade-insecure-requests',
    );
  });

  it('sends no upgrade-insecure-requests with the GraphiQL page either', async () => {
    const response = await client.get('/graphql', { accept: 'text/html' });
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(String(response.headers['content-security-policy'])).not.toContain(
      'upgrade-insecure-requests',
    );
  });

  it('serves /metrics to anyone while METRICS_TOKEN is unset', async () => {
    expect((await client.get('/metrics')).status).toBe(200);
  });
});

describe('over https (PUBLIC_URL=https://...)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://gateway.example' });
  });
  afterAll(() => app.close());

  it.each([
    '/healthz',
    '/nothing-here',
  ])('sends HSTS and upgrade-insecure-requests on %s', async (path) => {
    const response = await fetch(`${app.url}${path}`);
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(response.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});

describe('METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ METRICS_TOKEN: 'metrics-secret' });
  });
  afterAll(() => app.close());

  it('keeps /metrics from anyone without the token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'metrics-secret', 'Bearer ']) {
      const response = await fetch(`${app.url}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'METRICS_UNAUTHORIZED' });
      expect(JSON.stringify(body)).not.toContain('http_requests_total');
    }
  });

  it('serves /metrics with the token', async () => {
    const response = await fetch(`${app.url}/metrics`, {
      headers: { authorization: 'Bearer metrics-secret' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('http_requests_total');
  });
});

describe('piece names with control or bidirectional characters', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const source = 'export function paint({ wipe }) { wipe(0); }';
  const names = [
    ['a right-to-left override', 'gnp.\u202Eexe'],
    ['NUL', 'red\u0000box'],
    ['BEL', 'red\u0007box'],
    ['a first-strong isolate', 'red\u2068box'],
    ['a newline', 'red\nbox'],
  ];

  it.each(names)('refuses a name with %s on REST', async (_label, name) => {
    const response = await fetch(`${app.url}/api/store-piece`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source, name }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'NAME_UNSAFE_CHARACTERS' });
  });

  it.each(names)('refuses a name with %s on GraphQL', async (_label, name) => {
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation($source: String!, $name: String) { publishPiece(source: $source, name: $name) { code } }',
        variables: { source, name },
      }),
    });
    const body = await response.json();
    expect(body.errors?.[0]?.extensions?.code).toBe('NAME_UNSAFE_CHARACTERS');
  });

  it('refuses it over MCP, and nothing was published by any face', async () => {
    const client = await connectHttp(app.url);
    try {
      for (const [, name] of names) {
        const result = await client.callTool({
          name: 'publish_piece',
          arguments: { source, name },
        });
        expect(result.isError).toBe(true);
        expect(toolErrorSchema.parse(result.structuredContent).code).toBe('NAME_UNSAFE_CHARACTERS');
      }
    } finally {
      await client.close();
    }
    expect(await app.db.pieces.countDocuments({})).toBe(0);
  });

  it('keeps accepting names in any script, emoji included', async () => {
    const response = await fetch(`${app.url}/api/store-piece`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source, name: 'שלום 🌅 sunrise' }),
    });
    expect(response.status).toBe(201);
  });
});
