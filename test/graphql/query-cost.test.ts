import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlDocs } from '../../src/docs/graphql-docs.js';
import { QUERY_COST_MAX } from '../../src/http/graphql-limits.js';
import { publisher } from '../lineage/publish.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, graphql, type HttpClient } from '../support/http-client.js';
import { thumbnailsStored } from '../support/thumbnails.js';

let app: TestApp;
let http: HttpClient;
let commands: CommandLog;
let root = '';

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  http = createHttpClient(app.url);
  const publish = publisher(() => http);
  root = await publish('/api/store-kidlisp', { source: '(wipe navy) ; cost root' });
  const published = [root];
  for (let child = 0; child < 3; child++) {
    const remix = await publish('/api/store-kidlisp', {
      source: `(wipe navy) ; cost remix ${child}`,
      remixOf: root,
    });
    published.push(remix);
    for (let grandchild = 0; grandchild < 2; grandchild++)
      published.push(
        await publish('/api/store-kidlisp', {
          source: `(wipe navy) ; cost remix ${child}.${grandchild}`,
          remixOf: remix,
        }),
      );
  }
  await thumbnailsStored(app, published);
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  http?.close();
  await app?.close();
});

/** The home page as a Relay client writes it: the node read through three nested fragments. */
const HOME_WITH_FRAGMENTS = `query Home {
  published(first: 24) { edges { cursor node { ...Card } } pageInfo { hasNextPage endCursor } }
}
fragment Card on PublishedItem { id ...Meta }
fragment Meta on PublishedItem { code ...Who }
fragment Who on PublishedItem { author { handle } }`;

const HOME_INLINED = `query Home {
  published(first: 24) {
    edges { cursor node { id code author { handle } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const REMIXES_OF_REMIXES = `query ($code: String!) { item(code: $code) { code
  remixes(first: 10) { edges { node { code author { handle }
    remixes(first: 10) { edges { node { code author { handle } } } }
  } } }
} }`;

const remixLevels = (levels: number, first: number) => {
  let selection = 'code';
  for (let level = 0; level < levels; level++)
    selection = `code remixes(first: ${first}) { edges { node { ${selection} } } }`;
  return `query ($code: String!) { item(code: $code) { ${selection} } }`;
};

const costOf = (body: object) => (body as { extensions?: Record<string, any> }).extensions?.cost;

describe('the cost of page sizes', () => {
  it('passes the Relay-style home query, at the same cost as its fields inlined', async () => {
    const withFragments = await graphql(app.url, HOME_WITH_FRAGMENTS);
    const inlined = await graphql(app.url, HOME_INLINED);
    expect(withFragments.body.errors).toBeUndefined();
    expect(withFragments.body.data.published.edges.length).toBeGreaterThan(0);
    expect(withFragments.body.data).toEqual(inlined.body.data);
    // The page query, then each of the 24 nodes and its author.
    expect(costOf(withFragments.body)).toEqual({
      requestedQueryCost: 1 + 24 * 2,
      maximumAvailable: QUERY_COST_MAX,
    });
    expect(costOf(inlined.body)).toEqual(costOf(withFragments.body));
  });

  it('passes remixes of remixes, 10 at both levels, priced by those page sizes', async () => {
    const answer = await graphql(app.url, REMIXES_OF_REMIXES, { code: root });
    expect(answer.body.errors).toBeUndefined();
    const children = answer.body.data.item.remixes.edges;
    expect(children).toHaveLength(3);
    expect(children.map((edge: any) => edge.node.remixes.edges.length)).toEqual([2, 2, 2]);
    // item, its page (1 + 10 x (node, author, the inner page (1 + 10 x (node, author)))).
    expect(costOf(answer.body).requestedQueryCost).toBe(1 + 1 + 10 * (2 + 1 + 10 * 2));
    // With the smaller pages asked through a variable, the price follows them.
    const smaller = REMIXES_OF_REMIXES.replaceAll('first: 10', 'first: $n').replace(
      '($code: String!)',
      '($code: String!, $n: Int)',
    );
    const priced = await graphql(app.url, smaller, { code: root, n: 2 });
    expect(costOf(priced.body).requestedQueryCost).toBe(1 + 1 + 2 * (2 + 1 + 2 * 2));
  });

  it.each([
    [
      'three levels of remixes(first: 100)',
      remixLevels(3, 100),
      1 + 1 + 100 * (2 + 100 * (2 + 100)),
    ],
    [
      'published(first: 100000)',
      '{ published(first: 100000) { edges { node { code } } } }',
      1 + 100_000,
    ],
  ])('refuses %s with its cost and the limit, reading nothing', async (_label, query, cost) => {
    commands.clear();
    const answer = await graphql(app.url, query, { code: root });
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    const [error] = answer.body.errors ?? [];
    expect(error?.message).toContain(String(cost));
    expect(error?.message).toContain(String(QUERY_COST_MAX));
    const expected = { requestedQueryCost: cost, maximumAvailable: QUERY_COST_MAX };
    expect(error?.extensions).toEqual({ code: 'QUERY_TOO_COSTLY', cost: expected });
    expect(costOf(answer.body)).toEqual(expected);
    expect(commands.names()).toEqual([]);
  });

  it('refuses a costly query beside a page of a negative size, which costs nothing off', async () => {
    // The negative page is refused on its own when it runs; priced below zero, it would let the
    // three levels of 100 beside it through.
    const costly = remixLevels(3, 100).replace(
      '{ item(',
      '{ offset: published(first: -1020000) { edges { node { code } } } item(',
    );
    commands.clear();
    const answer = await graphql(app.url, costly, { code: root });
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    expect(commands.names()).toEqual([]);
  });

  it('prices the operation asked for, not the others of its document', async () => {
    const document = `query Small { version } query Large { published(first: 100000) { edges { node { code } } } }`;
    const small = await http.post('/graphql', { query: document, operationName: 'Small' });
    expect(small.json).toEqual({
      data: { version: expect.any(String) },
      extensions: { cost: { requestedQueryCost: 0, maximumAvailable: QUERY_COST_MAX } },
    });
    const large = await http.post('/graphql', { query: document, operationName: 'Large' });
    expect(large.json.errors[0].extensions.code).toBe('QUERY_TOO_COSTLY');
  });

  it('prices the documented examples as the docs say', async () => {
    const { cost } = graphqlDocs();
    expect(cost.limit).toBe(QUERY_COST_MAX);
    for (const example of cost.examples) {
      const answer = await graphql(app.url, example.query);
      expect(answer.body.errors, example.query).toBeUndefined();
      expect(costOf(answer.body).requestedQueryCost, example.query).toBe(example.cost);
    }
  });

  it('keeps the depth limit', async () => {
    const answer = await graphql(app.url, remixLevels(6, 1), { code: root });
    expect(answer.body.errors?.[0]?.message).toMatch(/depth/i);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });
});
