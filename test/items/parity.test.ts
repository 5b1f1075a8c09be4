import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio } from '../mcp/support.js';
import { failureOf } from '../mcp/surface.js';
import { useSeededApp } from './fixtures.js';

let mcpHttp: Client;
let mcpStdio: Client;
const fixture = useSeededApp();
beforeAll(async () => {
  mcpHttp = await connectHttp(fixture.app.url);
  mcpStdio = await connectStdio(fixture.app.url);
});
afterAll(async () => {
  await mcpHttp?.close();
  await mcpStdio?.close();
});

const GRAPHQL_ITEM = `query ($code: String!) { item(code: $code) {
  kind code address url when hits author { handle } remixOf { address }
  ... on KidlispItem { source }
  ... on ClockItem { source }
  ... on PieceItem { source name ext mediaUrl }
  ... on PaintingItem { ext mediaUrl }
  ... on TapeItem { ext duration mediaUrl }
} }`;

/** GraphQL's item as the JSON facts REST and MCP answer (a field a type lacks is null). */
function graphqlFacts(item: Record<string, any>) {
  return {
    kind: String(item.kind).toLowerCase(),
    code: item.code,
    address: item.address,
    url: item.url,
    when: item.when,
    hits: item.hits,
    author: item.author?.handle ?? null,
    source: item.source ?? null,
    mediaUrl: item.mediaUrl ?? null,
    ext: item.ext ?? null,
    name: item.name ?? null,
    remixOf: item.remixOf?.address ?? null,
    duration: item.duration ?? null,
  };
}

async function mcpFacts(client: Client, code: string) {
  const result = await client.callTool({ name: 'get_item', arguments: { code } });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent;
}

describe('REST, GraphQL and MCP answer the same facts for the same codes', () => {
  it('for every kind', async () => {
    const codes = [
      fixture.seeded.kidlisp,
      `clock~${fixture.seeded.clock}`,
      fixture.seeded.piece,
      fixture.seeded.painting,
      fixture.seeded.tape,
    ];
    for (const code of codes) {
      // The first read counts this client's hit; every face after it sees the same count.
      const rest = await fixture.http.get(`/api/items/${code}`);
      expect(rest.status, code).toBe(200);
      const graphql = await fixture.http.graphql(GRAPHQL_ITEM, { code });
      expect(graphql.json.errors, code).toBeUndefined();
      expect(graphqlFacts(graphql.json.data.item), code).toEqual(rest.json);
      expect(await mcpFacts(mcpHttp, code), code).toEqual(rest.json);
      expect(await mcpFacts(mcpStdio, code), code).toEqual(rest.json);
    }
  });

  it('and the same failure for a code nothing has', async () => {
    const rest = await fixture.http.get('/api/items/absent');
    expect(rest.json.code).toBe('ITEM_NOT_FOUND');
    const graphql = await fixture.http.graphql(GRAPHQL_ITEM, { code: 'absent' });
    expect(graphql.json.data.item).toBeNull();
    for (const client of [mcpHttp, mcpStdio]) {
      const result = await client.callTool({ name: 'get_item', arguments: { code: 'absent' } });
      expect(result.isError).toBe(true);
      expect(failureOf(result)).toEqual({ code: 'ITEM_NOT_FOUND', message: rest.json.message });
    }
  });
});
