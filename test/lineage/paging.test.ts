import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINEAGE_MAX } from '../../src/operations/lineage/lineage.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { thumbnailsStored } from '../support/thumbnails.js';
import { publisher } from './publish.js';

let app: TestApp;
let http: HttpClient;
let commands: CommandLog;

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  http = createHttpClient(app.url);
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  http?.close();
  await app?.close();
});

const publish = publisher(() => http);

describe('lineage of a chain of 20 remixes', () => {
  const chain: string[] = []; // addresses, the root first

  beforeAll(async () => {
    chain.push(await publish('/api/store-kidlisp', { source: '(wipe navy) ; generation 0' }));
    for (let generation = 1; generation <= 20; generation++) {
      // Kinds alternate, so each level is looked up in another collection.
      const address =
        generation % 2 === 1
          ? `clock~${await publish('/api/store-clock', { source: `c d e ; generation ${generation}`, remixOf: chain.at(-1) })}`
          : await publish('/api/store-kidlisp', {
              source: `(wipe navy) ; generation ${generation}`,
              remixOf: chain.at(-1),
            });
      chain.push(address);
    }
    await thumbnailsStored(
      app,
      chain.filter((address) => !address.startsWith('clock~')),
    );
  });

  const query = (fields: string) =>
    http.graphql(`query ($c: String!) { item(code: $c) { address ${fields} } }`, {
      c: chain.at(-1),
    });

  it('answers every ancestor, the parent first, up to the root', async () => {
    const answer = await query('lineage { address }');
    expect(answer.json.data.item.lineage.map((item: { address: string }) => item.address)).toEqual(
      chain.slice(0, -1).reverse(),
    );
  });

  it('costs one database command per level, no more', async () => {
    await query(''); // the item itself, and its hit, counted once for this client
    commands.clear();
    await query('');
    const itemAlone = commands.names().length;
    commands.clear();
    await query('lineage { address code when }');
    const sent = commands.commands();
    const forLineage = sent.length - itemAlone;
    expect(forLineage).toBeLessThanOrEqual(20);
    // Each level is one find on the collection of that ancestor's kind.
    const finds = sent.filter(({ name }) => name === 'find').map(({ command }) => command.find);
    expect(finds.filter((collection) => collection === 'clocks')).toHaveLength(10);
  });
});

describe('lineage of a chain deeper than it walks', () => {
  it(`answers the nearest ${LINEAGE_MAX} ancestors, the last one's lineage going on from there`, async () => {
    const when = new Date();
    const codes = Array.from({ length: LINEAGE_MAX + 5 }, (_, n) => `deep${n}`);
    await app.db.kidlisp.insertMany(
      codes.map((code, n) => ({
        code,
        source: `(wipe ${n}) ; deep`,
        hash: `deep-${n}`,
        when,
        lastAccessed: when,
        hits: 1,
        ...(n > 0 ? { remixOf: { kind: 'kidlisp' as const, code: codes[n - 1] as string } } : {}),
      })),
    );
    const lineage = async (code: string) =>
      (
        await http.graphql('query ($c: String!) { item(code: $c) { lineage { code } } }', {
          c: code,
        })
      ).json.data.item.lineage.map((item: { code: string }) => item.code);
    const nearest = await lineage(codes.at(-1) as string);
    expect(nearest).toEqual(codes.slice(4, -1).reverse());
    expect(await lineage(nearest.at(-1))).toEqual(codes.slice(0, 4).reverse());
  });
});

describe('remixes of one work, 250 of them', () => {
  let parent: string;
  const expected: string[] = []; // addresses, newest first

  beforeAll(async () => {
    parent = await publish('/api/store-kidlisp', { source: '(wipe red) ; much remixed' });
    const published: string[] = [];
    for (let n = 0; n < 200; n++) {
      published.push(
        n % 4 === 0
          ? `clock~${await publish('/api/store-clock', { source: `c c ; remix ${n}`, remixOf: parent })}`
          : await publish('/api/store-kidlisp', {
              source: `(wipe red) ; remix ${n}`,
              remixOf: parent,
            }),
      );
    }
    // 50 more, all registered in one millisecond: the cursor's tie-break on _id keeps them apart.
    const when = new Date();
    const tied = Array.from({ length: 50 }, (_, n) => ({
      code: `tie${n}`,
      slug: `2026/08/03/tie${n}.png`,
      when,
      remixOf: { kind: 'kidlisp' as const, code: parent },
    }));
    const { insertedIds } = await app.db.paintings.insertMany(tied);
    const tiedNewestFirst = tied
      .map((record, index) => ({ code: record.code, id: insertedIds[index]?.toHexString() ?? '' }))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map((record) => record.code);
    expected.push(...tiedNewestFirst, ...published.reverse());
    // Works that are not its remixes stay out of the list.
    await publish('/api/store-kidlisp', { source: '(wipe red) ; an original' });
    await publish('/api/store-kidlisp', {
      source: '(wipe red) ; remix of a remix',
      remixOf: expected[0],
    });
  });

  type Page = {
    edges: { node: { address: string } }[];
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      startCursor: string;
      endCursor: string;
    };
  };

  async function graphqlPage(args: string, variables: object): Promise<Page> {
    const answer = await http.graphql(
      `query ($c: String!, $cursor: String) { item(code: $c) { remixes(${args}) { edges { node { address } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
      { c: parent, ...variables },
    );
    expect(answer.json.errors).toBeUndefined();
    return answer.json.data.item.remixes;
  }

  it('GraphQL pages them down and up with no gap or duplicate', async () => {
    const down: string[] = [];
    let page = await graphqlPage('first: 40, after: $cursor', { cursor: null });
    for (;;) {
      down.push(...page.edges.map((edge) => edge.node.address));
      if (!page.pageInfo.hasNextPage) break;
      page = await graphqlPage('first: 40, after: $cursor', { cursor: page.pageInfo.endCursor });
    }
    expect(down).toEqual(expected);

    const up: string[] = [];
    page = await graphqlPage('last: 40, before: $cursor', { cursor: null });
    for (;;) {
      up.unshift(...page.edges.map((edge) => edge.node.address));
      if (!page.pageInfo.hasPreviousPage) break;
      page = await graphqlPage('last: 40, before: $cursor', { cursor: page.pageInfo.startCursor });
    }
    expect(up).toEqual(expected);
  });

  it('REST pages them down and up with opaque cursors, with no gap or duplicate', async () => {
    type RestPage = { items: { address: string; remixOf: string }[]; pageInfo: Page['pageInfo'] };
    const get = async (query: string): Promise<RestPage> => {
      const answer = await http.get(`/api/items/${parent}/remixes?limit=33${query}`);
      expect(answer.status, answer.text).toBe(200);
      return answer.json;
    };
    const down: string[] = [];
    let page = await get('');
    for (;;) {
      expect(page.items.every((item) => item.remixOf === parent)).toBe(true);
      down.push(...page.items.map((item) => item.address));
      if (!page.pageInfo.hasNextPage) break;
      page = await get(`&after=${page.pageInfo.endCursor}`);
    }
    expect(down).toEqual(expected);

    // Up from the last page: `before` its first item, until the top.
    const up: string[] = [...page.items.map((item) => item.address)];
    while (page.pageInfo.hasPreviousPage) {
      page = await get(`&before=${page.pageInfo.startCursor}`);
      up.unshift(...page.items.map((item) => item.address));
    }
    expect(up).toEqual(expected);
  });

  it('REST answers 404 for a work nothing has, and 400 for a cursor it did not issue', async () => {
    const missing = await http.get('/api/items/zzzz9/remixes');
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('ITEM_NOT_FOUND');
    const forged = await http.get(`/api/items/${parent}/remixes?after=bm9wZQ`);
    expect(forged.status).toBe(400);
    expect(forged.json.code).toBe('CURSOR_INVALID');
  });
});
