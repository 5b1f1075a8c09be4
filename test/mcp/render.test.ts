import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeRenderSurface, type McpClientLike } from './render-surface.js';
import { connectHttp, connectStdio, requireBuiltBin } from './support.js';

/** The v1 SDK client (what most assistant hosts ship), over the built bin or /mcp. */
async function connectV1(transport: 'stdio' | 'http', url: string): Promise<McpClientLike> {
  const client = new ClientV1({ name: 'render-test-v1', version: '1.0.0' });
  await client.connect(
    transport === 'stdio'
      ? new StdioV1({
          command: process.execPath,
          args: [requireBuiltBin()],
          env: { SERVICE_URL: url, PATH: process.env.PATH ?? '' },
          stderr: 'pipe',
        })
      : new HttpV1(new URL('/mcp', url)),
  );
  return client as unknown as McpClientLike;
}

const connections: Record<string, (url: string) => Promise<McpClientLike>> = {
  'v2 client over stdio': async (url) => (await connectStdio(url)) as unknown as McpClientLike,
  'v2 client over /mcp': async (url) => (await connectHttp(url)) as unknown as McpClientLike,
  'v1 client over stdio': (url) => connectV1('stdio', url),
  'v1 client over /mcp': (url) => connectV1('http', url),
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe.each(Object.keys(connections))('%s', (label) => {
  let client: McpClientLike;
  beforeAll(async () => {
    client = await (connections[label] as (url: string) => Promise<McpClientLike>)(app.url);
  });
  afterAll(async () => {
    await client?.close();
  });
  describeRenderSurface(
    label,
    () => app,
    () => client,
  );
});
