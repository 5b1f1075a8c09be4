import type { RequestListener } from 'node:http';
import type { Database } from '../src/db/client.js';
import { type BenchRow, interleaved, listen, load, row } from './report.js';

export const CODE = 'benchread';
const ACCOUNT = 'auth0|bench-reader';
/** Published KidLisp beside the one read, so lookups run in a collection of a community's size. */
export const OTHER_ITEMS = 100_000;
const BATCH = 10_000;

async function seed(db: Database): Promise<void> {
  const when = new Date('2026-08-03T12:00:00.000Z');
  for (let start = 0; start < OTHER_ITEMS; start += BATCH) {
    await db.kidlisp.insertMany(
      Array.from({ length: BATCH }, (_, i) => ({
        code: `seed${start + i}`,
        source: `(wipe navy) ; ${start + i}`,
        hash: `bench-seed-${start + i}`,
        when,
        lastAccessed: when,
        hits: 1,
      })),
    );
  }
  await seedReadItem(db, when);
}

/** The item every read asks for, and its author's handle. */
export async function seedReadItem(db: Database, when: Date): Promise<void> {
  await db.kidlisp.insertOne({
    code: CODE,
    source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)',
    hash: 'bench-read-hash',
    when,
    lastAccessed: when,
    hits: 1,
    user: ACCOUNT,
  });
  await db.handles.insertOne({ _id: ACCOUNT, handle: 'benchreader' });
}

/**
 * The baselines: bare node:http routes doing the same database work as the service's reads,
 * with the raw driver and nothing else. `/item/<code>`: the code asked of the four collections of
 * the shared namespace at once, then the author's handle (GET /api/items/<code>, GraphQL item).
 * `/kidlisp/<code>`: one find in kidlisp, then the handle (GET /api/store-kidlisp?code=).
 */
function rawDriverReads(db: Database): RequestListener {
  const send = (res: Parameters<RequestListener>[1], status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return async (req, res) => {
    const [, route, code = ''] = (req.url ?? '/').split('/');
    const record =
      route === 'kidlisp'
        ? await db.kidlisp.findOne({ code })
        : (
            await Promise.all([
              db.kidlisp.findOne({ code }),
              db.pieces.findOne({ code }),
              db.paintings.findOne({ code }),
              db.tapes.findOne({ code }),
            ])
          ).find(Boolean);
    if (!record) return send(res, 404, { error: 'Not found' });
    const handle = record.user
      ? await db.handles.findOne({ _id: record.user }, { projection: { handle: 1 } })
      : null;
    send(res, 200, {
      code: record.code,
      source: 'source' in record ? record.source : null,
      when: record.when,
      hits: 'hits' in record ? record.hits : 0,
      author: handle ? `@${handle.handle}` : null,
    });
  };
}

export const ITEM_QUERY = JSON.stringify({
  query:
    'query ($code: String!) { item(code: $code) { kind code url when hits author { handle } ... on KidlispItem { source } } }',
  variables: { code: CODE },
});

/**
 * Reading one item by code, the same client again and again (after its first read counts its
 * hit, no read writes): REST and GraphQL beside the raw-driver routes, in this one run, in
 * rounds of one second that take turns.
 */
export async function benchItems(
  serviceUrl: string,
  db: Database,
  options: { seconds: number },
): Promise<BenchRow[]> {
  await seed(db);
  const baseline = await listen(rawDriverReads(db));
  const seconds = 1;
  try {
    const r = await interleaved(
      {
        baselineItem: () => load({ url: `${baseline.url}/item/${CODE}`, seconds }),
        restItem: () => load({ url: `${serviceUrl}/api/items/${CODE}`, seconds }),
        graphqlItem: () =>
          load({
            url: `${serviceUrl}/graphql`,
            seconds,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            // The same bytes every time: built once by autocannon, as the GET cases' requests are.
            body: ITEM_QUERY,
          }),
        baselineKidlisp: () => load({ url: `${baseline.url}/kidlisp/${CODE}`, seconds }),
        restKidlisp: () => load({ url: `${serviceUrl}/api/store-kidlisp?code=${CODE}`, seconds }),
      },
      Math.max(1, options.seconds),
    );
    for (const [name, result] of Object.entries(r)) {
      if (result.errors || result.non2xx)
        throw new Error(
          `item bench ${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`,
        );
    }
    return [
      row(
        'read an item by code among 100,000, REST /api/items/<code>',
        'raw-driver route',
        r.restItem,
        r.baselineItem,
      ),
      row(
        'read an item by code among 100,000, GraphQL item(code:)',
        'raw-driver route',
        r.graphqlItem,
        r.baselineItem,
      ),
      row(
        'read an item by code among 100,000, GraphQL item(code:)',
        'REST /api/items/<code>',
        r.graphqlItem,
        r.restItem,
      ),
      row(
        'read KidLisp by code among 100,000, REST ?code=',
        'raw-driver route',
        r.restKidlisp,
        r.baselineKidlisp,
      ),
    ];
  } finally {
    await baseline.close();
  }
}
