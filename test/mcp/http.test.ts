import { describe, expect, it } from 'vitest';
import { assistantTools } from '../../src/operations/assistant-catalog.js';
import { httpFetch } from '../support/http-client.js';
import { connectHttp } from './support.js';
import { describeAssistantSurface } from './surface.js';

describe('/mcp over Streamable HTTP (operations in-process)', () => {
  const surface = describeAssistantSurface('http', (url, token) => connectHttp(url, token));

  it('answers an invalid bearer token with 401 like REST', async () => {
    const response = await httpFetch(`${surface.app().url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer pgw_nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(connectHttp(surface.app().url, 'pgw_nope')).rejects.toThrow();
  });

  it('serves the 2026 protocol revision as well', async () => {
    const client = await connectHttp(surface.app().url, undefined, 'auto');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(Object.keys(assistantTools).length);
      const result = await client.callTool({
        name: 'publish_clock',
        arguments: { source: 'd4 f4 a4' },
      });
      expect(result).toMatchObject({ structuredContent: { cached: false } });
    } finally {
      await client.close();
    }
  });
});
