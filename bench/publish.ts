import { createHash } from 'node:crypto';
import type { Database } from '../src/db/client.js';
import { isDuplicateKey } from '../src/db/failure-kinds.js';
import { codeCandidates } from '../src/domain/codes.js';
import { type BenchRow, interleaved, listen, load, row } from './report.js';

/**
 * The baseline: a bare node:http route doing the same database work as a KidLisp publish
 * (dedup read by hash, a short code claimed from the same candidates, the record, the
 * publisher's popularity record) with the raw driver, and nothing else.
 */
async function startBaseline(db: Database): Promise<{ url: string; close(): Promise<void> }> {
  return listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { source } = JSON.parse(Buffer.concat(chunks).toString()) as { source: string };
    const trimmed = source.trim();
    const hash = createHash('sha256').update(trimmed).digest('hex');
    const existing = await db.kidlisp.findOne({ hash }, { projection: { code: 1 } });
    let code = existing?.code;
    const candidates = codeCandidates('random');
    while (!code) {
      const candidate = candidates.next().value as string;
      try {
        await db.codes.insertOne({ _id: candidate, type: 'kidlisp', when: new Date() });
        code = candidate;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    if (!existing) {
      const now = new Date();
      await db.kidlisp.insertOne({
        code,
        source: trimmed,
        hash,
        when: now,
        lastAccessed: now,
        hits: 1,
      });
      await db.itemHits.insertOne({
        _id: `kidlisp:${code}:address:baseline`,
        kind: 'kidlisp',
        code,
        client: 'address:baseline',
        when: now,
      });
    }
    res
      .writeHead(existing ? 200 : 201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code, cached: !!existing }));
  });
}

let counter = 0;
const freshSource = (label: string) => () =>
  JSON.stringify({ source: `(wipe ${label}) ; ${process.pid}-${++counter}` });
const freshMutation = () =>
  JSON.stringify({
    query: 'mutation ($source: String!) { publishKidlisp(source: $source) { code url cached } }',
    variables: { source: `(wipe graphql) ; ${process.pid}-${++counter}` },
  });

/**
 * Publish throughput for new sources: REST against the baseline, GraphQL against REST, in
 * rounds of one second that take turns.
 */
export async function benchPublish(
  serviceUrl: string,
  db: Database,
  options: { seconds: number },
): Promise<BenchRow[]> {
  const baseline = await startBaseline(db);
  const post = (url: string, body: () => string) => () =>
    load({
      url,
      seconds: 1,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
  try {
    // In rounds of a second that take turns: every case claims codes from the same, filling space.
    const { base, rest, graphql } = await interleaved(
      {
        base: post(`${baseline.url}/`, freshSource('base')),
        rest: post(`${serviceUrl}/api/store-kidlisp`, freshSource('rest')),
        graphql: post(`${serviceUrl}/graphql`, freshMutation),
      },
      Math.max(1, options.seconds),
    );
    for (const [name, result] of [
      ['baseline', base],
      ['rest', rest],
      ['graphql', graphql],
    ] as const) {
      if (result.errors || result.non2xx)
        throw new Error(
          `publish bench ${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`,
        );
    }
    return [
      row('publish KidLisp, REST', 'raw-driver route', rest, base),
      row('publish KidLisp, GraphQL', 'REST', graphql, rest),
    ];
  } finally {
    await baseline.close();
  }
}
