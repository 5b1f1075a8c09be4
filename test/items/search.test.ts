import type { Client } from '@modelcontextprotocol/client';
import { type Document, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { graphqlFace, mcpFace, restFace, type SearchFace, walkBothWays } from './search-faces.js';

/**
 * The works search, black-box on every face (REST GET /api/items, GraphQL published(search:),
 * the MCP tool search_works over Streamable HTTP and over stdio): the same works, in the same
 * order, and the same failures.
 */

let app: TestApp;
let http: HttpClient;
let mcpHttp: Client;
let mcpStdio: Client;

const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const FINDER = 'auth0|finder';
const OTHER = 'auth0|other';

const source = (code: string, text: string, fields: Document = {}) => ({
  _id: new ObjectId(),
  code,
  source: text,
  hash: `hash-${code}`,
  when: new Date(T0 + 500_000),
  lastAccessed: new Date(T0),
  hits: 0,
  ...fields,
});

/**
 * 250 works holding "zebra": 150 KidLisp, 84 melodies, 6 pieces (3 by name and source, 3 by
 * source only) and 10 paintings (by slug, without hits).
 */
const zebraKidlisp = Array.from({ length: 150 }, (_, i) =>
  source(`zk${i}`, `(wipe zebra ${i})`, {
    // Groups of five share one timestamp and hit counts repeat: only _id tells many apart.
    when: new Date(T0 + Math.floor(i / 5) * 1000),
    hits: i % 7,
    ...(i % 3 === 0 ? { user: FINDER } : {}),
  }),
);
const zebraClocks = Array.from({ length: 84 }, (_, i) =>
  source(`zc${i}`, `c d e zebra ${i}`, {
    when: new Date(T0 + Math.floor(i / 5) * 1000),
    hits: i % 4,
  }),
);
const zebraPieces = Array.from({ length: 6 }, (_, i) => ({
  ...source(`zq${i}`, `export const boot = () => 'zebra ${i}';`, {
    when: new Date(T0 + i * 1000),
    hits: i % 3,
  }),
  name: i < 3 ? `Zebra Piece ${i}` : `Piece ${i}`,
  slug: `2026/05/01/zq${i}.mjs`,
}));
const zebraPaintings = Array.from({ length: 10 }, (_, i) => ({
  _id: new ObjectId(),
  code: `zp${i}`,
  slug: `2026/05/01/Zebra-${i}.png`,
  when: new Date(T0 + Math.floor(i / 2) * 1000),
}));

/** Emoji around an ASCII run of each parity, so a cut at any offset would land inside a pair. */
const NEEDLES = [0, 1, 2, 3].map((pad) =>
  source(
    `nd${pad}`,
    `${'🌈'.repeat(60)}${'Z'.repeat(pad)}needle${'Y'.repeat(pad)}${'🌈'.repeat(60)}`,
  ),
);

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url, { maxSockets: 4 });
  await app.db.handles.insertMany([
    { _id: FINDER, handle: 'finder' },
    { _id: OTHER, handle: 'other' },
  ]);
  await app.db.kidlisp.insertMany([
    ...zebraKidlisp,
    source('fl1', '(wipe navy)\n(FLOOD 10 10)', { user: FINDER }),
    source('sp1', '(ink red) ; a spiral of dots', {
      user: OTHER,
      hits: 50,
      when: new Date(T0 + 900_000),
    }),
    source('uni1', '(ink 🌈) ; 虹 rainbow'),
    ...NEEDLES,
  ]);
  await app.db.clocks.insertMany([
    ...zebraClocks,
    source('spclk', 'c d e ; spiral', { hits: 3, when: new Date(T0 + 800_000) }),
  ]);
  await app.db.pieces.insertMany(zebraPieces);
  await app.db.pieces.insertOne({
    ...source('spiral-dance', 'export function paint({ wipe }) { wipe(1); }', {
      hits: 1,
      when: new Date(T0 + 700_000),
    }),
    name: 'Spiral Dance',
    slug: '2026/05/01/spiral-dance.mjs',
    user: FINDER,
  });
  await app.db.paintings.insertMany([
    ...zebraPaintings,
    { code: 'sppt', slug: 'finder/painting/spiral-sun.png', when: new Date(T0), user: FINDER },
  ]);
  mcpHttp = await connectHttp(app.url);
  mcpStdio = await connectStdio(app.url);
});
afterAll(async () => {
  http?.close();
  await mcpHttp?.close();
  await mcpStdio?.close();
  await app?.close();
});

/** The zebra works in a list's order, sorted here from the seeded records (the test's oracle). */
function zebraOrder(sort: 'relevance' | 'recent', only?: (record: Document) => boolean): string[] {
  const ranked = [
    ...[...zebraKidlisp, ...zebraClocks].map((r) => ({ r, name: 0, hits: r.hits })),
    ...zebraPieces.map((r) => ({ r, name: r.name.startsWith('Zebra') ? 1 : 0, hits: r.hits })),
    ...zebraPaintings.map((r) => ({ r, name: 1, hits: -1 })),
  ].filter(({ r }) => !only || only(r));
  const keys = (x: (typeof ranked)[number]) =>
    sort === 'relevance'
      ? [x.name, x.hits, x.r.when.getTime(), x.r._id.toHexString()]
      : [x.r.when.getTime(), x.r._id.toHexString()];
  return ranked
    .sort((a, b) => {
      const [ka, kb] = [keys(a), keys(b)];
      for (let i = 0; i < ka.length; i++)
        if (ka[i] !== kb[i])
          return (ka[i] as number | string) < (kb[i] as number | string) ? 1 : -1;
      return 0;
    })
    .map(({ r }) => r.code);
}

const faces: SearchFace[] = [
  { name: 'REST', search: (args) => restFace(http).search(args) },
  { name: 'GraphQL', search: (args) => graphqlFace(http).search(args) },
  mcpFace('MCP over HTTP', () => mcpHttp),
  mcpFace('MCP over stdio', () => mcpStdio),
];

/** No lone surrogate: what a cut through a pair leaves behind. */
const wellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

async function worksOf(face: SearchFace, args: Parameters<SearchFace['search']>[0]) {
  const answer = await face.search(args);
  if (!answer.ok) throw new Error(`${face.name} answered ${answer.code}`);
  return answer;
}

describe.each(faces)('the works search on $name', (face) => {
  it('finds a term in KidLisp source whatever its case, with an excerpt and the item facts', async () => {
    const { works } = await worksOf(face, { search: 'flood' });
    expect(works).toEqual([
      expect.objectContaining({
        kind: 'kidlisp',
        code: 'fl1',
        author: '@finder',
        source: '(wipe navy)\n(FLOOD 10 10)',
        excerpt: '(wipe navy)\n(FLOOD 10 10)',
      }),
    ]);
  });

  it('answers an empty page when nothing matches; the term is literal, not a pattern', async () => {
    for (const search of ['no-such-words-anywhere', '.*', 'zebra.1']) {
      expect(await worksOf(face, { search }), search).toEqual({
        ok: true,
        works: [],
        next: null,
        previous: null,
      });
    }
  });

  it('ranks by relevance: name or slug matches first, then hits, then newest', async () => {
    const { works } = await worksOf(face, { search: 'SPIRAL' });
    expect(works.map((work) => work.code)).toEqual(['spiral-dance', 'sppt', 'sp1', 'spclk']);
    expect(works[0]?.excerpt).toBe('Spiral Dance');
    expect(works[1]?.excerpt).toBe('finder/painting/spiral-sun.png');
    expect(works[2]?.excerpt).toBe('(ink red) ; a spiral of dots');
    const recent = await worksOf(face, { search: 'spiral', sort: 'recent' });
    expect(recent.works.map((work) => work.code)).toEqual(['sp1', 'spclk', 'spiral-dance', 'sppt']);
  });

  it('filters by kind', async () => {
    const clocks = await worksOf(face, { search: 'spiral', kind: 'clock' });
    expect(clocks.works.map((work) => [work.kind, work.code])).toEqual([['clock', 'spclk']]);
    const paintings = await worksOf(face, { search: 'zebra', kind: 'painting', limit: 100 });
    expect(paintings.works.map((work) => work.code)).toEqual(
      zebraOrder('relevance', (r) => r.code.startsWith('zp')),
    );
    // Pieces holding the term in their name come first, each once, though their source holds it too.
    const pieces = await worksOf(face, { search: 'zebra', kind: 'piece' });
    expect(pieces.works.map((work) => work.code)).toEqual(
      zebraOrder('relevance', (r) => r.code.startsWith('zq')),
    );
    expect(pieces.works[0]?.excerpt).toMatch(/^Zebra Piece/);
  });

  it('filters by handle, with or without the @', async () => {
    const spiral = await worksOf(face, { search: 'spiral', handle: '@finder' });
    expect(spiral.works.map((work) => work.code)).toEqual(['spiral-dance', 'sppt']);
    const zebra = await walkBothWays(face, { search: 'zebra', handle: 'finder', limit: 15 });
    const expected = zebraOrder('relevance', (r) => r.user === FINDER);
    expect(expected).toHaveLength(50);
    expect(zebra.down).toEqual(expected);
    expect(zebra.up).toEqual(expected);
    expect(await worksOf(face, { search: 'zebra', handle: '@nobody' })).toMatchObject({
      works: [],
    });
  });

  it('pages 250 results both ways with no gap or duplicate, by relevance and by date', async () => {
    for (const sort of ['relevance', 'recent'] as const) {
      const { down, up } = await walkBothWays(face, { search: 'zebra', sort, limit: 40 });
      const expected = zebraOrder(sort);
      expect(expected).toHaveLength(250);
      expect(new Set(down).size, sort).toBe(250);
      expect(down, sort).toEqual(expected);
      expect(up, sort).toEqual(expected);
    }
  });

  it('finds emoji and CJK text; an excerpt never splits a surrogate pair', async () => {
    const cjk = await worksOf(face, { search: '虹' });
    expect(cjk.works.map((work) => work.code)).toEqual(['uni1']);
    const rainbow = await worksOf(face, { search: '🌈', sort: 'recent', limit: 100 });
    expect(rainbow.works.map((work) => work.code).sort()).toEqual(
      ['nd0', 'nd1', 'nd2', 'nd3', 'uni1'].sort(),
    );
    const needles = await worksOf(face, { search: 'NEEDLE', limit: 100 });
    expect(needles.works).toHaveLength(NEEDLES.length);
    for (const work of needles.works) {
      const excerpt = work.excerpt ?? '';
      expect(excerpt, work.code).toContain('needle');
      expect(wellFormed(excerpt), work.code).toBe(true);
      expect(work.source, work.code).toContain(excerpt.replace(/^…|…$/g, ''));
      expect(excerpt.length).toBeLessThan((work.source ?? '').length);
    }
  });

  it('refuses a term over 200 characters with SEARCH_TOO_LONG; 200 is searched', async () => {
    expect(await face.search({ search: 'z'.repeat(201) })).toEqual({
      ok: false,
      code: 'SEARCH_TOO_LONG',
    });
    expect(await face.search({ search: 'z'.repeat(200) })).toMatchObject({ ok: true, works: [] });
  });

  it('an empty term lists every work, newest first, without excerpts; relevance needs a term', async () => {
    const all = await worksOf(face, { search: '', limit: 5 });
    expect(all.works).toHaveLength(5);
    expect(all.works.every((work) => work.excerpt === null)).toBe(true);
    expect(all.next).not.toBeNull();
    expect(all.works.map((work) => work.code)).toEqual(
      (await worksOf(face, { search: '   ', sort: 'recent', limit: 5 })).works.map((w) => w.code),
    );
    expect(await face.search({ search: '', sort: 'relevance' })).toEqual({
      ok: false,
      code: 'SORT_INVALID',
    });
  });

  it('refuses a cursor of another sort and a page size over 100', async () => {
    const page = await worksOf(face, { search: 'zebra', limit: 2 });
    expect(
      await face.search({ search: 'zebra', sort: 'recent', cursor: page.next as string }),
    ).toEqual({ ok: false, code: 'CURSOR_INVALID' });
    expect(await face.search({ search: 'zebra', limit: 101 })).toEqual({
      ok: false,
      code: 'LIMIT_TOO_LARGE',
    });
  });
});
