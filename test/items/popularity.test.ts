import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/context.js';
import { findItems } from '../../src/operations/items/index.js';
import { runOperation } from '../../src/operations/operation.js';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { fromAddress, publish } from './fixtures.js';

let app: TestApp;
let http: HttpClient;
beforeAll(async () => {
  // Distinct clients are told apart by X-Forwarded-For from this (trusted, loopback) proxy.
  app = await startTestApp({ TRUST_PROXY: 'loopback' });
  http = createHttpClient(app.url);
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

const SOURCE_A = '(wipe red) ; popular a';
const SOURCE_B = '(wipe blue) ; popular b';

async function rankings() {
  const graphql = await http.graphql(
    '{ published(kind: KIDLISP, sort: HITS, first: 2) { edges { node { code hits } } } topKidlisp(limit: 2) { code hits } }',
  );
  const rest = await http.get('/api/store-kidlisp?recent=1&sort=hits&limit=2');
  const mcp = await connectHttp(app.url);
  try {
    const examples = await mcp.readResource({ uri: 'service://piece-examples' });
    const text = (examples.contents[0] as { text: string }).text;
    return {
      published: graphql.json.data.published.edges.map((edge: any) => [
        edge.node.code,
        edge.node.hits,
      ]),
      top: graphql.json.data.topKidlisp.map((row: any) => [row.code, row.hits]),
      rest: rest.json.recent.map((row: any) => [row.code, row.hits]),
      examples: [...text.matchAll(/## \d+\. `([^`]+)` \((\d+) hits?\)/g)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    };
  } finally {
    await mcp.close();
  }
}

describe('popularity: distinct clients, once each', () => {
  it('one client republishing and reading 25 times does not move any ranking; other clients do', async () => {
    const a = await publish(http, '/api/store-kidlisp', { source: SOURCE_A }, fromAddress(1));
    const b = await publish(http, '/api/store-kidlisp', { source: SOURCE_B }, fromAddress(2));
    await http.get(`/api/items/${b}`, fromAddress(3));
    await http.get(`/api/items/${b}`, fromAddress(4));
    const before = await rankings();
    const expected = [
      [b, 3],
      [a, 1],
    ];
    expect(before).toEqual({
      published: expected,
      top: expected,
      rest: expected,
      examples: expected,
    });

    // One client, 25 times over, through every way of publishing and reading A.
    const client = fromAddress(5);
    for (let i = 0; i < 25; i++) {
      await publish(http, '/api/store-kidlisp', { source: `  ${SOURCE_A}\n` }, client);
      await http.get(`/api/store-kidlisp?code=${a}`, client);
      await http.get(`/api/store-kidlisp?codes=${a},${b}`, client);
      await http.get(`/api/items/${a}`, client);
      await http.graphql('query ($c: String!) { item(code: $c) { code } }', { c: a }, client);
    }
    const after = await rankings();
    // A gained this one client (1 -> 2), B too (through codes=): B still leads, by the same margin.
    const moved = [
      [b, 4],
      [a, 2],
    ];
    expect(after).toEqual({ published: moved, top: moved, rest: moved, examples: moved });

    // Three more clients reading A do move it ahead.
    for (const n of [6, 7, 8]) await http.get(`/api/items/${a}`, fromAddress(n));
    const overtaken = await rankings();
    const ahead = [
      [a, 5],
      [b, 4],
    ];
    expect(overtaken).toEqual({ published: ahead, top: ahead, rest: ahead, examples: ahead });
  });

  it('called without HTTP, the operation counts each client once: one hit record per client and item', async () => {
    const code = await publish(
      http,
      '/api/store-kidlisp',
      { source: '(wipe green) ; accounts' },
      fromAddress(20),
    );
    const ctx = (address: string) =>
      createRequestContext(app.services, { authorization: undefined, clientAddress: address });
    // The operation itself, with no HTTP in between.
    for (const address of ['10.0.0.1', '10.0.0.1', '10.0.0.2']) {
      const [item] = await runOperation(findItems, await ctx(address), { codes: [code, 'absent'] });
      expect(item?.code).toBe(code);
    }
    expect((await app.db.kidlisp.findOne({ code }))?.hits).toBe(3);
    expect((await app.db.itemHits.find({ code }).toArray()).map((hit) => hit._id).sort()).toEqual([
      `kidlisp:${code}:address:10.0.0.1`,
      `kidlisp:${code}:address:10.0.0.2`,
      `kidlisp:${code}:address:10.9.0.20`,
    ]);
  });
});
