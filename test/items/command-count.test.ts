import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

let app: TestApp;
let http: HttpClient;
let commands: CommandLog;

const when = new Date('2026-06-01T00:00:00.000Z');
const source = (code: string, user: string) => ({
  code,
  source: `(wipe ${code})`,
  hash: `hash-${code}`,
  when,
  lastAccessed: when,
  hits: 1,
  user,
});
const users = ['auth0|a', 'auth0|b', 'auth0|c'];
const kidlispCodes = Array.from({ length: 30 }, (_, i) => `ck${i}`);
const clockCodes = Array.from({ length: 10 }, (_, i) => `cc${i}`);
const pieceCodes = Array.from({ length: 5 }, (_, i) => `cp${i}`);
const paintingCodes = Array.from({ length: 5 }, (_, i) => `cg${i}`);

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  http = createHttpClient(app.url);
  await app.db.kidlisp.insertMany(
    kidlispCodes.map((code, i) => source(code, users[i % 3] as string)),
  );
  await app.db.clocks.insertMany(clockCodes.map((code, i) => source(code, users[i % 3] as string)));
  await app.db.pieces.insertMany(
    pieceCodes.map((code) => ({ ...source(code, 'auth0|a'), slug: `2026/06/01/${code}` })),
  );
  await app.db.paintings.insertMany(
    paintingCodes.map((code) => ({ code, slug: `2026/06/01/${code}.png`, when })),
  );
  await app.db.handles.insertMany([
    { _id: 'auth0|a', handle: 'ann' },
    { _id: 'auth0|b', handle: 'bob' },
  ]);
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  http?.close();
  await app?.close();
});

/** `name collection` of each command sent, e.g. `find kidlisp`. */
const sent = () =>
  commands
    .commands()
    .map(
      ({ name, command }: { name: string; command: Document }) =>
        `${name} ${String(command[name])}`,
    );

function count(list: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of list) counts[entry] = (counts[entry] ?? 0) + 1;
  return counts;
}

const FIFTY = [
  ...kidlispCodes,
  ...clockCodes.map((code) => `clock~${code}`),
  ...pieceCodes,
  ...paintingCodes,
];

describe('items(codes:) of 50', () => {
  const query =
    'query ($codes: [String!]!) { items(codes: $codes) { code hits author { handle } } }';

  it('reads each collection once, and counts the reads with one insert and one update per collection', async () => {
    expect(FIFTY).toHaveLength(50);
    commands.clear();
    const response = await http.graphql(query, { codes: FIFTY });
    expect(response.json.errors).toBeUndefined();
    expect(response.json.data.items.map((item: { code: string }) => item.code)).toEqual(
      FIFTY.map((code) => code.replace('clock~', '')),
    );
    expect(response.json.data.items[0]).toEqual({
      code: 'ck0',
      hits: 2,
      author: { handle: '@ann' },
    });
    expect(count(sent())).toEqual({
      'find kidlisp': 1,
      'find clocks': 1,
      'find pieces': 1,
      'find paintings': 1,
      'find tapes': 1,
      'find @handles': 1,
      // This client's first read of each: one insert of 50 hit records, one update per collection.
      'insert item-hits': 1,
      'update kidlisp': 1,
      'update clocks': 1,
      'update pieces': 1,
      'update paintings': 1,
    });
  });

  it('asks again only the collections its codes were found in, and writes nothing, when the same client asks again', async () => {
    commands.clear();
    const response = await http.graphql(query, { codes: FIFTY });
    expect(response.json.data.items[0]).toEqual({
      code: 'ck0',
      hits: 2,
      author: { handle: '@ann' },
    });
    expect(count(sent())).toEqual({
      'find kidlisp': 1,
      'find clocks': 1,
      'find pieces': 1,
      'find paintings': 1,
      'find @handles': 1,
    });
  });
});

describe('a code read again', () => {
  const finds = () =>
    sent().filter((entry) => entry.startsWith('find ') && entry !== 'find @handles');
  const read = async (code: string) => {
    const response = await http.get(`/api/items/${code}`);
    expect(response.status).toBe(200);
    return response.json as { kind: string; source: string | null };
  };

  it('asks every collection of the shared namespace the first time, then only the one it was in', async () => {
    await app.db.paintings.insertOne({ code: 'rg1', slug: '2026/06/01/rg1.png', when });
    commands.clear();
    expect((await read('rg1')).kind).toBe('painting');
    expect(finds().sort()).toEqual(['find kidlisp', 'find paintings', 'find pieces', 'find tapes']);

    commands.clear();
    expect((await read('rg1')).kind).toBe('painting');
    expect(finds()).toEqual(['find paintings']);
  });

  it('still finds a code given to a work of another kind, asking the others once the old kind has none', async () => {
    await app.db.paintings.insertOne({ code: 'rg2', slug: '2026/06/01/rg2.png', when });
    await read('rg2');
    await app.db.paintings.deleteOne({ code: 'rg2' });
    await app.db.kidlisp.insertOne(source('rg2', 'auth0|a'));

    commands.clear();
    expect(await read('rg2')).toMatchObject({ kind: 'kidlisp', source: '(wipe rg2)' });
    expect(finds()).toEqual(['find paintings', 'find kidlisp', 'find pieces', 'find tapes']);

    commands.clear();
    await read('rg2');
    expect(finds()).toEqual(['find kidlisp']);
  });

  it('answers 404 for a code no longer anywhere, asking every collection', async () => {
    await app.db.kidlisp.insertOne(source('rg3', 'auth0|a'));
    await read('rg3');
    await app.db.kidlisp.deleteOne({ code: 'rg3' });

    commands.clear();
    expect((await http.get('/api/items/rg3')).status).toBe(404);
    expect(finds()).toContain('find pieces');
    expect(finds()).toContain('find tapes');
  });
});

describe('a page of published(...)', () => {
  it('one kind: one query of its collection, one of the handles', async () => {
    commands.clear();
    const response = await http.graphql(
      '{ published(kind: KIDLISP, first: 30) { edges { node { code author { handle } } } } }',
    );
    expect(response.json.data.published.edges).toHaveLength(30);
    expect(count(sent())).toEqual({ 'find kidlisp': 1, 'find @handles': 1 });
  });

  it('every kind: one aggregation over all collections, one query of the handles', async () => {
    commands.clear();
    const response = await http.graphql(
      '{ published(first: 50, sort: HITS) { edges { node { code author { handle } ... on ClockItem { melody { valid } } } } } }',
    );
    expect(response.json.data.published.edges).toHaveLength(50);
    expect(count(sent())).toEqual({ 'aggregate kidlisp': 1, 'find @handles': 1 });
  });

  it('an author filter adds one query of the handles, whatever the page', async () => {
    commands.clear();
    const response = await http.graphql(
      '{ published(author: "@ann", first: 40) { edges { node { code author { handle } } } } }',
    );
    const edges = response.json.data.published.edges as { node: { author: { handle: string } } }[];
    expect(edges.length).toBeGreaterThan(10);
    expect(edges.every((edge) => edge.node.author.handle === '@ann')).toBe(true);
    expect(count(sent())).toEqual({ 'find @handles': 1, 'aggregate kidlisp': 1 });
  });
});
