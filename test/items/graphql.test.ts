import { describe, expect, it } from 'vitest';
import { fromAddress, publish, useSeededApp } from './fixtures.js';

// Distinct clients are told apart by X-Forwarded-For from this (trusted, loopback) proxy.
const fixture = useSeededApp({ TRUST_PROXY: 'loopback' });

const ITEM_FIELDS = `
  __typename kind code address url when hits author { handle }
  ... on KidlispItem { source }
  ... on ClockItem { source melody { valid tracks notes } }
  ... on PieceItem { source name ext mediaUrl }
  ... on PaintingItem { ext mediaUrl }
  ... on TapeItem { ext duration mediaUrl }
`;

async function query(text: string, variables: Record<string, unknown> = {}, headers = {}) {
  const response = await fixture.http.graphql(text, variables, headers);
  expect(response.status).toBe(200);
  return response.json as { data?: any; errors?: { message: string; extensions: any }[] };
}

describe('item(code:)', () => {
  it('answers each kind as its own type; a clock is clock~<code>', async () => {
    const base = fixture.app.services.config.publicUrl;
    const cases = [
      [
        fixture.seeded.kidlisp,
        { __typename: 'KidlispItem', kind: 'KIDLISP', source: '(wipe navy) ; seeded' },
      ],
      [
        `clock~${fixture.seeded.clock}`,
        {
          __typename: 'ClockItem',
          kind: 'CLOCK',
          code: fixture.seeded.clock,
          url: `${base}/clock~${fixture.seeded.clock}`,
          melody: { valid: true, tracks: 5, notes: 5 },
        },
      ],
      [
        fixture.seeded.piece,
        { __typename: 'PieceItem', name: 'Seeded Piece', ext: 'mjs', author: { handle: '@maker' } },
      ],
      [
        fixture.seeded.painting,
        {
          __typename: 'PaintingItem',
          ext: 'png',
          mediaUrl: `${base}/${fixture.seeded.painting}.png`,
        },
      ],
      [fixture.seeded.tape, { __typename: 'TapeItem', ext: 'mp4', duration: 12.5, author: null }],
    ] as const;
    for (const [code, expected] of cases) {
      const body = await query(`query ($code: String!) { item(code: $code) { ${ITEM_FIELDS} } }`, {
        code,
      });
      expect(body.errors, code).toBeUndefined();
      expect(body.data.item, code).toMatchObject({ address: code, ...expected });
    }
  });

  it('answers null for a code nothing has (and for a clock code without its prefix)', async () => {
    for (const code of ['nothing', fixture.seeded.clock, 'clock~', '../etc']) {
      const body = await query('query ($code: String!) { item(code: $code) { code } }', { code });
      expect(body.errors, code).toBeUndefined();
      expect(body.data.item, code).toBeNull();
    }
  });
});

describe('items(codes:)', () => {
  it('keeps the order and answers null for missing codes', async () => {
    const codes = [
      fixture.seeded.tape,
      'missing',
      `clock~${fixture.seeded.clock}`,
      fixture.seeded.kidlisp,
      fixture.seeded.kidlisp,
    ];
    const body = await query('query ($codes: [String!]!) { items(codes: $codes) { code kind } }', {
      codes,
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.items).toEqual([
      { code: fixture.seeded.tape, kind: 'TAPE' },
      null,
      { code: fixture.seeded.clock, kind: 'CLOCK' },
      { code: fixture.seeded.kidlisp, kind: 'KIDLISP' },
      { code: fixture.seeded.kidlisp, kind: 'KIDLISP' },
    ]);
  });

  it('refuses more than 50 codes and an empty list with machine codes', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `c${i}`);
    const tooMany = await query('query ($codes: [String!]!) { items(codes: $codes) { code } }', {
      codes: many,
    });
    expect(tooMany.errors?.[0]?.extensions.code).toBe('TOO_MANY_CODES');
    expect(tooMany.errors?.[0]?.message).toBe('Too many codes. Maximum 50 per request.');
    const none = await query('{ items(codes: []) { code } }');
    expect(none.errors?.[0]?.extensions.code).toBe('CODES_INVALID');
    const fifty = await query('query ($codes: [String!]!) { items(codes: $codes) { code } }', {
      codes: many.slice(0, 50),
    });
    expect(fifty.data.items).toHaveLength(50);
  });
});

describe('published(...)', () => {
  it('lists every kind newest first, one kind, and one author', async () => {
    const all = await query('{ published(first: 10) { edges { node { kind code } } } }');
    expect(all.data.published.edges.map((edge: any) => edge.node.kind)).toEqual([
      'TAPE',
      'PAINTING',
      'PIECE',
      'CLOCK',
      'KIDLISP',
    ]);
    const clocks = await query('{ published(kind: CLOCK) { edges { node { code } } } }');
    expect(clocks.data.published.edges).toEqual([{ node: { code: fixture.seeded.clock } }]);
    for (const author of ['@maker', 'maker']) {
      const mine = await query(
        'query ($a: String) { published(author: $a) { edges { node { code } } } }',
        {
          a: author,
        },
      );
      expect(mine.data.published.edges.map((edge: any) => edge.node.code)).toEqual([
        fixture.seeded.piece,
        fixture.seeded.clock,
        fixture.seeded.kidlisp,
      ]);
    }
    const nobody = await query(
      '{ published(author: "@nobody") { edges { cursor } pageInfo { hasNextPage } } }',
    );
    expect(nobody.data.published).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });

  it('sorts by HITS: distinct clients first, ties newest first', async () => {
    const older = await publish(fixture.http, '/api/store-kidlisp', {
      source: '(wipe hits) ; older',
    });
    await publish(fixture.http, '/api/store-kidlisp', { source: '(wipe hits) ; newer' });
    for (const n of [1, 2, 3]) await fixture.http.get(`/api/items/${older}`, fromAddress(100 + n));
    const body = await query(
      '{ published(kind: KIDLISP, sort: HITS, first: 3) { edges { node { code hits } } } }',
    );
    expect(body.data.published.edges[0].node).toEqual({ code: older, hits: 4 });
    const rest = body.data.published.edges.slice(1).map((edge: any) => edge.node.hits);
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
  });

  it('refuses bad arguments with machine codes', async () => {
    const recent = await query('{ published(first: 1) { pageInfo { endCursor } } }');
    const cursor = recent.data.published.pageInfo.endCursor;
    const cases: [string, string][] = [
      ['{ published(first: 101) { edges { cursor } } }', 'LIMIT_TOO_LARGE'],
      ['{ published(first: 0) { edges { cursor } } }', 'LIMIT_INVALID'],
      ['{ published(first: 2, last: 2) { edges { cursor } } }', 'LIMIT_INVALID'],
      ['{ published(after: "nope") { edges { cursor } } }', 'CURSOR_INVALID'],
      [`{ published(sort: HITS, after: "${cursor}") { edges { cursor } } }`, 'CURSOR_INVALID'],
      ['{ published(author: "no way!") { edges { cursor } } }', 'HANDLE_INVALID'],
      ['{ published(kind: SOUND) { edges { cursor } } }', 'INVALID_INPUT'],
    ];
    for (const [text, code] of cases) {
      const body = await query(text);
      expect(body.errors?.[0]?.extensions.code, text).toBe(code);
    }
  });
});

describe('author(handle:) and viewer', () => {
  it('answers an author with its works, and null for an unknown handle', async () => {
    const body = await query(
      '{ author(handle: "@maker") { handle works(kind: PIECE) { edges { node { code } } } } nobody: author(handle: "ghost") { handle } }',
    );
    expect(body.data).toEqual({
      author: { handle: '@maker', works: { edges: [{ node: { code: fixture.seeded.piece } }] } },
      nobody: null,
    });
  });

  it('lists the works of every account under a handle until handles are unique', async () => {
    await fixture.app.db.handles.insertOne({ _id: 'auth0|twin', handle: 'maker' });
    await fixture.app.db.kidlisp.insertOne({
      code: 'twin1',
      source: '(wipe twin)',
      hash: 'twin-hash',
      when: new Date(),
      lastAccessed: new Date(),
      hits: 1,
      user: 'auth0|twin',
    });
    const body = await query(
      '{ author(handle: "maker") { works(kind: KIDLISP) { edges { node { code } } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.author.works.edges.map((edge: any) => edge.node.code)).toEqual([
      'twin1',
      fixture.seeded.kidlisp,
    ]);
    await fixture.app.db.handles.deleteOne({ _id: 'auth0|twin' });
    await fixture.app.db.kidlisp.deleteOne({ code: 'twin1' });
  });

  it('viewer is the bearer account with its works, null when anonymous', async () => {
    const anonymous = await query('{ viewer { handle } }');
    expect(anonymous.data.viewer).toBeNull();
    const body = await query(
      '{ viewer { account handle works(first: 2) { edges { node { code } } pageInfo { hasNextPage } } } }',
      {},
      { authorization: `Bearer ${fixture.seeded.makerToken}` },
    );
    expect(body.data.viewer).toEqual({
      account: fixture.seeded.makerAccount,
      handle: '@maker',
      works: {
        edges: [{ node: { code: fixture.seeded.piece } }, { node: { code: fixture.seeded.clock } }],
        pageInfo: { hasNextPage: true },
      },
    });
  });
});
