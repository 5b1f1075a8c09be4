import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { assistantTools } from '../../src/operations/assistant-catalog.js';
import { connectStdio, requireBuiltBin } from './support.js';

/** A service that accepts requests and never answers them; reports each request's closing. */
async function silentService(): Promise<{
  url: string;
  closed: Promise<IncomingMessage>;
  server: Server;
}> {
  let reportClosed!: (req: IncomingMessage) => void;
  const closed = new Promise<IncomingMessage>((resolve) => (reportClosed = resolve));
  const server = createServer((req) => req.socket.once('close', () => reportClosed(req)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed, server };
}

import { describeAssistantSurface, failureOf } from './surface.js';

describe('publish-mcp over stdio (built bin, calling the REST API)', () => {
  const surface = describeAssistantSurface('stdio', (url, token) => connectStdio(url, token));

  it('a bad SERVICE_TOKEN is a tool error with UNAUTHENTICATED, and nothing is written', async () => {
    const app = surface.app();
    const client = await connectStdio(app.url, 'pgw_not-a-token');
    try {
      const before = await app.db.kidlisp.countDocuments();
      const result = await client.callTool({
        name: 'publish_kidlisp',
        arguments: { source: '(wipe red) ; bad token' },
      });
      expect(failureOf(result).code).toBe('UNAUTHENTICATED');
      expect(await app.db.kidlisp.countDocuments()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('an unreachable service is a tool error, while preview_kidlisp still works locally', async () => {
    const client = await connectStdio('http://127.0.0.1:1');
    try {
      const publish = await client.callTool({ name: 'publish_clock', arguments: { source: 'c4' } });
      expect(failureOf(publish).code).toBe('SERVICE_UNREACHABLE');
      const preview = await client.callTool({
        name: 'preview_kidlisp',
        arguments: { source: 'blue' },
      });
      expect(preview).toMatchObject({ structuredContent: { valid: true } });
    } finally {
      await client.close();
    }
  });

  it('negotiates the 2026 protocol revision as well', async () => {
    const client = await connectStdio(surface.app().url, undefined, 'auto');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(Object.keys(assistantTools).length);
      const result = await client.callTool({
        name: 'preview_kidlisp',
        arguments: { source: '(box)' },
      });
      expect(result).toMatchObject({ structuredContent: { valid: true } });
    } finally {
      await client.close();
    }
  });

  it('writes only protocol messages to stdout', async () => {
    const child = spawn(process.execPath, [requireBuiltBin()], {
      env: { SERVICE_URL: 'http://127.0.0.1:1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout });
    const request = (id: number, method: string, params: object = {}) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    request(2, 'tools/call', { name: 'publish_clock', arguments: { source: 'c4' } });
    const seen: unknown[] = [];
    for await (const line of lines) {
      seen.push(JSON.parse(line));
      if (seen.length === 2) break;
    }
    child.stdin.end();
    await once(child, 'exit');
    expect(seen).toMatchObject([
      { jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'publish-gateway' } } },
      {
        jsonrpc: '2.0',
        id: 2,
        result: {
          isError: true,
          content: [{ type: 'text', text: expect.stringMatching(/\(SERVICE_UNREACHABLE\)$/) }],
        },
      },
    ]);
  });

  it('gives up on a silent service after SERVICE_TIMEOUT_MS, with TIMEOUT', async () => {
    const silent = await silentService();
    const impatient = await connectStdio(silent.url, undefined, 'legacy', {
      SERVICE_TIMEOUT_MS: '300',
    });
    try {
      const result = await impatient.callTool({
        name: 'publish_kidlisp',
        arguments: { source: '(wipe red)' },
      });
      expect(failureOf(result).code).toBe('TIMEOUT');
    } finally {
      await impatient.close();
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it('cancels the call to the service when the client cancels the request', async () => {
    const silent = await silentService();
    const client = await connectStdio(silent.url);
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'publish_kidlisp', arguments: { source: '(wipe blue)' } },
        { signal: controller.signal },
      );
      await new Promise((resolve) => silent.server.once('request', resolve));
      controller.abort();
      await expect(call).rejects.toThrow();
      const req = await silent.closed; // the bin aborted its fetch: the connection to the service closed
      expect(req.url).toBe('/api/store-kidlisp');
    } finally {
      await client.close();
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });
});
