import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

let app: TestApp;
let http: HttpClient;
let mcp: Client;

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url);
  mcp = await connectHttp(app.url);
});
afterAll(async () => {
  await mcp?.close();
  http?.close();
  await app?.close();
});

const piece = (n: number) => `export function paint({ wipe }) { wipe(${n}); }`;

async function publishRest(path: string, body: object) {
  const answer = await http.post(path, body);
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.json as { code: string; cached: boolean };
}

const itemFacts = async (address: string) => (await http.get(`/api/items/${address}`)).json;

const tool = async (name: string, args: Record<string, unknown>) =>
  (await mcp.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content: { type: string; text: string }[];
  };

/** Everything a failed publish could have left behind: records, claimed codes, stored objects. */
async function storedState() {
  const { db } = app;
  const counts = await Promise.all(
    [db.kidlisp, db.clocks, db.pieces, db.paintings, db.tapes, db.codes].map((collection) =>
      (collection as typeof db.kidlisp).countDocuments(),
    ),
  );
  return counts;
}

describe('remixOf on every publish', () => {
  it('is stored with the record, and read back on REST, GraphQL and MCP', async () => {
    const root = await publishRest('/api/store-kidlisp', { source: '(wipe navy) ; root' });
    const viaRest = await publishRest('/api/store-kidlisp', {
      source: '(wipe navy) (ink red) ; rest remix',
      remixOf: root.code,
    });
    const viaGraphql = await http.graphql(
      'mutation ($s: String!, $r: String) { publishClock(source: $s, remixOf: $r) { code cached } }',
      { s: 'c d e ; graphql remix', r: viaRest.code },
    );
    const clock = viaGraphql.json.data.publishClock.code as string;
    const viaMcp = await tool('publish_piece', {
      source: piece(1),
      remixOf: `clock~${clock}`,
    });
    expect(viaMcp.isError).toBeFalsy();
    const pieceCode = viaMcp.structuredContent?.code as string;

    await app.services.storage.put(
      '2026/08/03/remixed.png',
      Buffer.from('89504e47', 'hex'),
      'image/png',
    );
    const media = await publishRest('/api/track-media', {
      slug: '2026/08/03/remixed.png',
      ext: 'png',
      remixOf: pieceCode,
    });

    expect((await itemFacts(root.code)).remixOf).toBeNull();
    expect((await itemFacts(viaRest.code)).remixOf).toBe(root.code);
    expect((await itemFacts(`clock~${clock}`)).remixOf).toBe(viaRest.code);
    expect((await itemFacts(pieceCode)).remixOf).toBe(`clock~${clock}`);
    expect((await itemFacts(media.code)).remixOf).toBe(pieceCode);

    const read = await http.graphql(
      'query ($c: String!) { item(code: $c) { code remixOf { address } lineage { kind address } } }',
      { c: media.code },
    );
    expect(read.json.data.item).toEqual({
      code: media.code,
      remixOf: { address: pieceCode },
      lineage: [
        { kind: 'PIECE', address: pieceCode },
        { kind: 'CLOCK', address: `clock~${clock}` },
        { kind: 'KIDLISP', address: viaRest.code },
        { kind: 'KIDLISP', address: root.code },
      ],
    });
    const children = await http.graphql(
      'query ($c: String!) { item(code: $c) { remixOf { code } lineage { code } remixes { edges { node { address } } } } }',
      { c: root.code },
    );
    expect(children.json.data.item).toEqual({
      remixOf: null,
      lineage: [],
      remixes: { edges: [{ node: { address: viaRest.code } }] },
    });

    const got = await tool('get_item', { code: pieceCode });
    expect(got.structuredContent).toMatchObject({ code: pieceCode, remixOf: `clock~${clock}` });
  });

  it('keeps the lineage of content that already exists: dedup stays global', async () => {
    const first = await publishRest('/api/store-kidlisp', { source: '(wipe teal) ; first parent' });
    const second = await publishRest('/api/store-kidlisp', {
      source: '(wipe lime) ; other parent',
    });
    const remix = await publishRest('/api/store-kidlisp', {
      source: '(wipe teal) (ink lime)',
      remixOf: first.code,
    });
    // The same source again, naming another parent, and naming none: the first answer stands.
    const again = await publishRest('/api/store-kidlisp', {
      source: '(wipe teal) (ink lime)',
      remixOf: second.code,
    });
    expect(again).toMatchObject({ code: remix.code, cached: true });
    const plain = await tool('publish_kidlisp', { source: '(wipe teal) (ink lime)' });
    expect(plain.structuredContent).toMatchObject({ code: remix.code, cached: true });
    expect((await itemFacts(remix.code)).remixOf).toBe(first.code);
    // And an original published again as a "remix" stays an original.
    const original = await publishRest('/api/store-kidlisp', {
      source: '(wipe lime) ; other parent',
      remixOf: first.code,
    });
    expect(original).toMatchObject({ code: second.code, cached: true });
    expect((await itemFacts(second.code)).remixOf).toBeNull();
  });
});

describe('a remixOf naming nothing', () => {
  const nothing = ['zzzz9', 'clock~nothing', '../etc', '$abc'];

  it('answers 404 ITEM_NOT_FOUND on every REST publish and stores nothing', async () => {
    await app.services.storage.put(
      '2026/08/03/orphan.png',
      Buffer.from('89504e47', 'hex'),
      'image/png',
    );
    const before = await storedState();
    for (const remixOf of nothing) {
      for (const [path, body] of [
        ['/api/store-kidlisp', { source: '(wipe red) ; orphan' }],
        ['/api/store-clock', { source: 'c c c ; orphan' }],
        ['/api/store-clock', { melody: 'c c c ; orphan' }],
        ['/api/store-piece', { source: piece(99), name: 'orphan' }],
        ['/api/track-media', { slug: '2026/08/03/orphan.png', ext: 'png' }],
      ] as const) {
        const answer = await http.post(path, { ...body, remixOf });
        expect(answer.status, `${path} ${remixOf}`).toBe(404);
        expect(answer.json).toMatchObject({ code: 'ITEM_NOT_FOUND', field: 'remixOf' });
        expect(answer.json.error).toContain(remixOf);
      }
    }
    expect(await storedState()).toEqual(before);
    expect(await app.services.storage.exists('2026/08/03/orphan.png')).toBe(true);
  });

  it('answers ITEM_NOT_FOUND on every GraphQL publish and stores nothing', async () => {
    const before = await storedState();
    const mutations = [
      'publishKidlisp(source: "(wipe red) ; g", remixOf: $r) { code }',
      'publishClock(source: "c c ; g", remixOf: $r) { code }',
      'publishPiece(source: "export default function () {}", remixOf: $r) { code }',
      'trackMedia(slug: "2026/08/03/orphan.png", ext: png, remixOf: $r) { code }',
    ];
    for (const mutation of mutations) {
      const answer = await http.graphql(`mutation ($r: String) { ${mutation} }`, { r: 'zzzz9' });
      expect(Object.values(answer.json.data ?? {})).not.toContainEqual(expect.anything());
      expect(answer.json.errors[0].extensions.code, mutation).toBe('ITEM_NOT_FOUND');
    }
    expect(await storedState()).toEqual(before);
  });

  it('answers a tool error on every MCP publish tool and stores nothing', async () => {
    const before = await storedState();
    for (const [name, args] of [
      ['publish_kidlisp', { source: '(wipe red) ; m' }],
      ['publish_clock', { source: 'c c ; m' }],
      ['publish_piece', { source: piece(98) }],
    ] as const) {
      const result = await tool(name, { ...args, remixOf: 'clock~nothing' });
      expect(result.isError, name).toBe(true);
      expect(result.content[0]?.text).toMatch(/\(ITEM_NOT_FOUND\)$/);
    }
    expect(await storedState()).toEqual(before);
  });

  it('answers 400 when remixOf is not a string, before anything is looked up', async () => {
    const answer = await http.post('/api/store-kidlisp', { source: '(wipe red)', remixOf: 7 });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'INVALID_INPUT', field: 'remixOf' });
  });
});
