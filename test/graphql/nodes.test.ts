import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertHandles, insertMessages, message } from '../chat/fixtures.js';
import { publisher } from '../lineage/publish.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, graphql, type HttpClient } from '../support/http-client.js';

let app: TestApp;
let http: HttpClient;
let commands: CommandLog;

const messages = [
  message('system', 1, 'hello from system', { user: 'auth0|nodes-author', hearts: 2 }),
  message('clock', 2, 'hello from clock'),
  message('system', 3, 'removed', { deleted: true }),
];
/** Addresses of the published works, in publish order. */
const addresses: string[] = [];

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  http = createHttpClient(app.url);
  await insertMessages(app.db, messages);
  await insertHandles(app.db, { 'auth0|nodes-author': 'nodesauthor' });
  const publish = publisher(() => http);
  for (let index = 0; index < 60; index++)
    addresses.push(await publish('/api/store-kidlisp', { source: `(wipe ${index}) ; node` }));
  for (let index = 0; index < 30; index++)
    addresses.push(
      `clock~${await publish('/api/store-clock', { source: `c d e ; node ${index}` })}`,
    );
  addresses.push(
    await publish('/api/store-piece', {
      name: 'node piece',
      source: 'export function paint({ wipe }) { wipe(0); }',
    }),
  );
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  http?.close();
  await app?.close();
});

const ITEMS = `query ($codes: [String!]!) { items(codes: $codes) { __typename id address } }`;

/** Every published work's global id, read through items(codes:). */
async function itemIds(): Promise<{ __typename: string; id: string; address: string }[]> {
  const read = [];
  for (let start = 0; start < addresses.length; start += 50) {
    const answer = await graphql(app.url, ITEMS, { codes: addresses.slice(start, start + 50) });
    read.push(...answer.body.data.items);
  }
  return read;
}

const NODE = `query ($id: ID!) { node(id: $id) {
  __typename id
  ... on PublishedItem { address }
  ... on ChatMessage { text instance hearts from }
  ... on Author { handle }
} }`;

describe('node(id:)', () => {
  it('returns every kind of published item by the id it answered', async () => {
    const items = await itemIds();
    expect(new Set(items.map((item) => item.__typename))).toEqual(
      new Set(['KidlispItem', 'ClockItem', 'PieceItem']),
    );
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    for (const item of [items[0], items[60], items.at(-1)]) {
      const answer = await graphql(app.url, NODE, { id: item?.id });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.node).toEqual(item);
    }
  });

  it('returns a chat message by the id the chat gives it, and an author by theirs', async () => {
    const page = await graphql(
      app.url,
      '{ chatMessages(instance: all) { edges { node { id text author: from } } } }',
    );
    const [first] = page.body.data.chatMessages.edges;
    expect(first.node.id).toBe(messages[0]?._id.toHexString());
    const answer = await graphql(app.url, NODE, { id: first.node.id });
    expect(answer.body.data.node).toEqual({
      __typename: 'ChatMessage',
      id: first.node.id,
      text: 'hello from system',
      instance: 'system',
      hearts: 2,
      from: '@nodesauthor',
    });

    const author = await graphql(app.url, '{ author(handle: "nodesauthor") { id handle } }');
    const byId = await graphql(app.url, NODE, { id: author.body.data.author.id });
    expect(byId.body.data.node).toEqual({ __typename: 'Author', ...author.body.data.author });
  });

  it('answers null for an id that names nothing, and for one that is no id at all', async () => {
    const removed = messages[2]?._id.toHexString();
    for (const id of [
      removed,
      'bm90aGluZw==',
      'not base64 at all!',
      '',
      'S2lkbGlzcEl0ZW06bm9wZQ==',
    ]) {
      const answer = await graphql(app.url, NODE, { id });
      expect(answer.body, id).toEqual({ data: { node: null }, extensions: expect.any(Object) });
    }
  });
});

describe('nodes(ids:)', () => {
  it('returns 100 objects in the order asked, reading each collection once', async () => {
    const items = await itemIds();
    const chatIds = messages.slice(0, 2).map((m) => m._id.toHexString());
    const ids = [...items.map((item) => item.id), ...chatIds].slice(0, 93);
    // Unknown and malformed ids among them answer null in their place.
    const asked = [...ids, 'S2lkbGlzcEl0ZW06bm9wZQ==', '%%%', ...chatIds, ...ids.slice(0, 3)];
    expect(asked).toHaveLength(100);
    commands.clear();
    const answer = await graphql(
      app.url,
      'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }',
      { ids: asked },
    );
    expect(answer.body.errors).toBeUndefined();
    const nodes = answer.body.data.nodes as ({ id: string } | null)[];
    expect(nodes.map((node) => node?.id ?? null)).toEqual(
      asked.map((id, at) => (at === 93 || at === 94 ? null : id)),
    );
    const reads = commands
      .commands()
      .filter(({ name }) => name === 'find')
      .map(({ command }) => command.find as string);
    expect(reads.sort()).toEqual(['chat-clock', 'chat-system', 'clocks', 'kidlisp', 'pieces']);
  });

  it('refuses more than 100 ids with TOO_MANY_IDS', async () => {
    const answer = await graphql(app.url, 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, (_, index) => `id${index}`),
    });
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_MANY_IDS', max: 100 });
  });
});
