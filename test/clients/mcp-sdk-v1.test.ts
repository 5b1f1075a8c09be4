import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantTools } from '../../src/operations/assistant-catalog.js';
import { requireBuiltBin } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

/**
 * The v1 TypeScript MCP SDK client (the one most assistant hosts ship), over stdio (the built
 * `publish-mcp` bin) and over Streamable HTTP (/mcp). After `tools/list` it checks every
 * structured result against the tool's output schema: an error result must carry its message
 * as text, and nothing that contradicts the schema.
 */

type ToolName = keyof typeof assistantTools;
type CallResult = Awaited<ReturnType<Client['callTool']>>;

const valid: Record<ToolName, Record<string, unknown>> = {
  publish_piece: { source: 'export function paint({ wipe }) { wipe(9); }\n', name: 'v1 client' },
  publish_kidlisp: { source: '(wipe teal)\n(ink white)\n(line 0 0 100 100)' },
  publish_clock: { source: 'c4 e4 g4 {square} c5' },
  get_api_info: {},
  preview_kidlisp: { source: '(wipe red)' },
  // A code published before the clients connect (see beforeAll).
  get_item: { code: '' },
  search_works: { query: 'plum' },
  render_kidlisp: { source: '(wipe red)', frames: [0, 10], width: 32, height: 32 },
};

/** Inputs the service refuses, each with the machine code the error text ends with. */
const refused: Record<Exclude<ToolName, 'get_api_info'>, [Record<string, unknown>, string]> = {
  publish_piece: [{ source: 'const x = 1;\n' }, 'PIECE_NO_LIFECYCLE'],
  publish_kidlisp: [{ source: '   ' }, 'SOURCE_REQUIRED'],
  publish_clock: [{ source: 'c'.repeat(10_001) }, 'SOURCE_TOO_LONG'],
  preview_kidlisp: [{ source: 'x'.repeat(50_001) }, 'SOURCE_TOO_LONG'],
  get_item: [{ code: 'zzzz' }, 'ITEM_NOT_FOUND'],
  search_works: [{ query: 'p'.repeat(201) }, 'SEARCH_TOO_LONG'],
  render_kidlisp: [{ source: '(wipe red)', width: 513 }, 'INVALID_INPUT'],
};

const textOf = (result: CallResult) =>
  (result.content as { type: string; text?: string }[]).map((item) => item.text ?? '').join('');

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  const published = await postJson(`${app.url}/api/store-kidlisp`, { source: '(wipe plum)' });
  valid.get_item = { code: published.body.code };
});
afterAll(async () => {
  await app?.close();
});

const connections: Record<string, (url: string) => Promise<Client>> = {
  stdio: async (url) => {
    const client = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [requireBuiltBin()],
        env: { SERVICE_URL: url, PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    return client;
  },
  http: async (url) => {
    const client = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
    return client;
  },
};

describe.each(Object.keys(connections))('the MCP SDK 1.x client over %s', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await (connections[transport] as (url: string) => Promise<Client>)(app.url);
    // Listing first: from then on the client validates structured content against the output schemas.
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(assistantTools).sort());
  });
  afterAll(async () => {
    await client?.close();
  });

  it.each(Object.keys(valid) as ToolName[])('calls %s with a valid input', async (name) => {
    const result = await client.callTool({ name, arguments: valid[name] });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toBeDefined();
  });

  it.each(
    Object.keys(refused) as (keyof typeof refused)[],
  )('calls %s with an input the service refuses and gets the error text', async (name) => {
    const [input, code] = refused[name];
    const result = await client.callTool({ name, arguments: input });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(new RegExp(`\\w.* \\(${code}\\)$`, 's'));
  });

  it.each(
    Object.keys(valid) as ToolName[],
  )('calls %s with an input of the wrong type and gets the error text', async (name) => {
    const result = await client.callTool({ name, arguments: { source: 42, name: 7, code: 9 } });
    if (name === 'get_api_info') {
      // It takes no arguments; unknown ones are ignored.
      expect(result.isError ?? false).toBe(false);
      return;
    }
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(
      name === 'get_item' ? /code/ : name === 'search_works' ? /query/ : /source/,
    );
  });
});

describe('the MCP SDK 1.x client over stdio, the service unreachable', () => {
  it.each([
    'publish_kidlisp',
    'get_api_info',
  ] as const)('%s answers SERVICE_UNREACHABLE as text', async (name) => {
    const client = await (connections.stdio as (url: string) => Promise<Client>)(
      'http://127.0.0.1:1',
    );
    try {
      await client.listTools();
      const result = await client.callTool({ name, arguments: valid[name] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/\(SERVICE_UNREACHABLE\)$/);
    } finally {
      await client.close();
    }
  });
});
