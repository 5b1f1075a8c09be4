import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

let app: TestApp;
let http: HttpClient;

const T0 = Date.parse('2026-05-01T00:00:00.000Z');
/**
 * 250 items (150 KidLisp, 90 melodies, 10 paintings without any `hits`, as media records of an
 * existing database are), many sharing a timestamp or a hit count with others.
 */
const KIDLISP = 150;
const CLOCKS = 90;
const PAINTINGS = 10;

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url, { maxSockets: 8 });
  const record = (prefix: string, i: number) => ({
    _id: new ObjectId(),
    code: `${prefix}${i}`,
    source: `(wipe ${prefix} ${i})`,
    hash: `${prefix}-hash-${i}`,
    // Groups of five share one timestamp: only the _id tells them apart.
    when: new Date(T0 + Math.floor(i / 5) * 1000),
    lastAccessed: new Date(T0),
    hits: i % 7,
  });
  await app.db.kidlisp.insertMany(Array.from({ length: KIDLISP }, (_, i) => record('pk', i)));
  await app.db.clocks.insertMany(Array.from({ length: CLOCKS }, (_, i) => record('pc', i)));
  await app.db.paintings.insertMany(
    Array.from({ length: PAINTINGS }, (_, i) => ({
      _id: new ObjectId(),
      code: `pp${i}`,
      slug: `2026/05/01/pp${i}.png`,
      when: new Date(T0 + Math.floor(i / 2) * 1000),
    })),
  );
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

const PAGE = `edges { cursor node { code hits } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

interface Page {
  edges: { cursor: string; node: { code: string; hits: number } }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string;
    endCursor: string;
  };
}

async function page(args: string, variables: Record<string, unknown>): Promise<Page> {
  const response = await http.graphql(
    `query ($after: String, $before: String) { published(${args}, after: $after, before: $before) { ${PAGE} } }`,
    variables,
  );
  expect(response.json.errors).toBeUndefined();
  return response.json.data.published as Page;
}

/** Every code of the list, paging down with first/after or up with last/before. */
async function walk(filter: string, direction: 'down' | 'up', size: number): Promise<string[]> {
  const codes: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const current =
      direction === 'down'
        ? await page(`${filter}, first: ${size}`, { after: cursor })
        : await page(`${filter}, last: ${size}`, { before: cursor });
    const pageCodes = current.edges.map((edge) => edge.node.code);
    if (direction === 'down') codes.push(...pageCodes);
    else codes.unshift(...pageCodes);
    const more =
      direction === 'down' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
    if (!more) return codes;
    cursor = direction === 'down' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
  }
  throw new Error('paging did not end');
}

/** Publishes new KidLisp and melodies until stopped; answers how many it published. */
function publishMeanwhile(): { stop(): Promise<number> } {
  let running = true;
  let published = 0;
  const loop = (async () => {
    while (running) {
      const n = published++;
      const path = n % 2 ? '/api/store-clock' : '/api/store-kidlisp';
      const response = await http.post(path, { source: n % 2 ? `c d e ${n}` : `(wipe new ${n})` });
      expect([200, 201]).toContain(response.status);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return published;
    },
  };
}

/** The seeded codes in list order, from the database's own sort (the test's oracle). */
async function expectedOrder(
  sort: 'recent' | 'hits',
  kinds: ('kidlisp' | 'clocks' | 'paintings')[],
) {
  const rows = (
    await Promise.all(
      kinds.map(
        (kind) =>
          app.db[kind]
            .find(
              { code: { $regex: '^p[kcp]\\d+$' } },
              { projection: { code: 1, hits: 1, when: 1 } },
            )
            .toArray() as Promise<{ _id: ObjectId; code: string; hits?: number; when: Date }[]>,
      ),
    )
  ).flat();
  const key = (row: (typeof rows)[number]) =>
    [sort === 'hits' ? (row.hits ?? -1) : 0, row.when.getTime(), row._id.toHexString()] as const;
  return rows
    .sort((a, b) => {
      const [ah, aw, ai] = key(a);
      const [bh, bw, bi] = key(b);
      return bh - ah || bw - aw || (bi < ai ? -1 : bi > ai ? 1 : 0);
    })
    .map((row) => row.code);
}

const seededOnly = (codes: string[]) => codes.filter((code) => /^p[kcp]\d+$/.test(code));

describe('paging 250 items through published(...) while items are being published', () => {
  const cases = [
    {
      name: 'RECENT, every kind',
      filter: 'sort: RECENT',
      sort: 'recent',
      kinds: ['kidlisp', 'clocks', 'paintings'],
    },
    {
      name: 'HITS, every kind',
      filter: 'sort: HITS',
      sort: 'hits',
      kinds: ['kidlisp', 'clocks', 'paintings'],
    },
    {
      name: 'RECENT, KidLisp only',
      filter: 'kind: KIDLISP, sort: RECENT',
      sort: 'recent',
      kinds: ['kidlisp'],
    },
    {
      name: 'HITS, KidLisp only',
      filter: 'kind: KIDLISP, sort: HITS',
      sort: 'hits',
      kinds: ['kidlisp'],
    },
  ] as const;

  it.each(cases)('$name: down and up, each item once, in order', async ({
    filter,
    sort,
    kinds,
  }) => {
    const expected = await expectedOrder(sort, [...kinds]);
    expect(expected).toHaveLength(kinds.length === 3 ? KIDLISP + CLOCKS + PAINTINGS : KIDLISP);
    const publisher = publishMeanwhile();
    let down: string[];
    let up: string[];
    try {
      down = await walk(filter, 'down', 17);
      up = await walk(filter, 'up', 23);
    } finally {
      const published = await publisher.stop();
      expect(published).toBeGreaterThan(0);
    }
    // No duplicates at all (new items included), and the seeded ones exactly once, in order.
    expect(new Set(down).size).toBe(down.length);
    expect(new Set(up).size).toBe(up.length);
    expect(seededOnly(down)).toEqual(expected);
    expect(seededOnly(up)).toEqual(expected);
  });
});
