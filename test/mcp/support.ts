import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { requireBuilt } from '../support/processes.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILT_BIN = fileURLToPath(new URL('../../dist/src/mcp/stdio.js', import.meta.url));

/** The built `publish-mcp` bin, as users run it. */
export const requireBuiltBin = () => requireBuilt(BUILT_BIN);

export type Negotiation = 'legacy' | 'auto';

const newClient = (negotiation: Negotiation) =>
  new Client(
    { name: 'publish-gateway-tests', version: '1.0.0' },
    { versionNegotiation: { mode: negotiation } },
  );

/** Stdio clients pass only a few variables to the child, so the service's address and token go explicitly. */
export async function connectStdio(
  serviceUrl: string,
  token?: string,
  negotiation: Negotiation = 'legacy',
  env: Record<string, string> = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltBin()],
    env: {
      SERVICE_URL: serviceUrl,
      ...(token ? { SERVICE_TOKEN: token } : {}),
      PATH: process.env.PATH ?? '',
      ...env,
    },
    stderr: 'pipe',
  });
  const client = newClient(negotiation);
  await client.connect(transport);
  return client;
}

export async function connectHttp(
  serviceUrl: string,
  token?: string,
  negotiation: Negotiation = 'legacy',
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', serviceUrl), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const client = newClient(negotiation);
  await client.connect(transport);
  return client;
}
