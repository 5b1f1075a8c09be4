import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

/**
 * /mcp against DNS rebinding (MCP specification, Streamable HTTP, security): a browser origin
 * must be allowed, the Host must be this service's; everything else is 403 and runs nothing.
 */

const EXTRA_ORIGIN = 'https://assistant.example';
let app: TestApp;
let http: HttpClient;

beforeAll(async () => {
  app = await startTestApp({ MCP_ALLOWED_ORIGINS: `${EXTRA_ORIGIN}, http://other.example:8080` });
  http = createHttpClient(app.url);
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const publishCall = (source: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'publish_kidlisp', arguments: { source } },
});

const preflight = (origin: string) =>
  http.send('/mcp', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version, authorization',
    },
  });

describe('preflights', () => {
  it.each([
    EXTRA_ORIGIN,
    'http://localhost:5173',
    'http://127.0.0.1:6274',
  ])('an allowed origin (%s) gets 204 with the headers the transport uses', async (origin) => {
    const answer = await preflight(origin);
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    expect(answer.headers['access-control-allow-methods']).toMatch(/POST/);
    const allowed = String(answer.headers['access-control-allow-headers']).toLowerCase();
    for (const header of [
      'content-type',
      'mcp-protocol-version',
      'mcp-session-id',
      'authorization',
    ])
      expect(allowed).toContain(header);
    expect(String(answer.headers['access-control-expose-headers']).toLowerCase()).toContain(
      'mcp-session-id',
    );
    expect(answer.headers.vary).toMatch(/Origin/);
  });

  it('the public URL\u2019s own origin is allowed', async () => {
    expect((await preflight(new URL(app.services.config.publicUrl).origin)).status).toBe(204);
  });

  it('a disallowed origin gets 403 ORIGIN_NOT_ALLOWED in the error shape, and no CORS headers', async () => {
    const answer = await preflight('http://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(answer.json.error).toBe(answer.json.message);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('calls', () => {
  it('without Origin (every non-browser client) work', async () => {
    const answer = await http.send('/mcp', {
      method: 'POST',
      headers: MCP_HEADERS,
      body: publishCall('(wipe navy) ; no origin'),
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/"cached":\s*false/);
  });

  it('from an allowed origin work and carry Access-Control-Allow-Origin', async () => {
    const answer = await http.send('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: EXTRA_ORIGIN },
      body: publishCall('(wipe lime) ; allowed origin'),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(EXTRA_ORIGIN);
    expect(answer.text).toMatch(/"cached":\s*false/);
  });

  it('the MCP SDK client connects and calls a tool from an allowed origin', async () => {
    const client = new Client({ name: 'origin-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', app.url), {
        requestInit: { headers: { origin: 'http://localhost:3000' } },
      }),
    );
    try {
      const result = await client.callTool({
        name: 'preview_kidlisp',
        arguments: { source: 'red' },
      });
      expect(result.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['a disallowed origin', { origin: 'http://evil.example' }, 'ORIGIN_NOT_ALLOWED'],
    [
      'a rebound name (foreign Host and Origin)',
      { host: 'evil.example', origin: 'http://evil.example' },
      'HOST_NOT_ALLOWED',
    ],
    ['a foreign Host without Origin', { host: 'evil.example:4000' }, 'HOST_NOT_ALLOWED'],
  ])('from %s get 403 and run nothing', async (_label, headers, code) => {
    const source = `(wipe red) ; ${code} ${JSON.stringify(headers)}`;
    const answer = await http.send('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...headers },
      body: publishCall(source),
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code });
    expect(await app.db.kidlisp.countDocuments({ source })).toBe(0);
  });

  it('with the public URL\u2019s host, as a reverse proxy on this machine sends it, work', async () => {
    const proxied = await startTestApp({ PUBLIC_URL: 'https://gateway.example' });
    const client = createHttpClient(proxied.url);
    try {
      const answer = await client.send('/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, host: 'gateway.example', origin: 'https://gateway.example' },
        body: publishCall('(wipe gray) ; proxied'),
      });
      expect(answer.status).toBe(200);
    } finally {
      client.close();
      await proxied.close();
    }
  });
});
