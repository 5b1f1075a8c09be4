import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_METRICS } from '../../src/telemetry/operation-metrics.js';
import { publisher } from '../lineage/publish.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

let app: TestApp;
let http: HttpClient;
let code = '';

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url);
  code = await publisher(() => http)('/api/store-kidlisp', { source: '(wipe navy) ; plain' });
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A POST to /graphql over real HTTP. `chunked` sends the body without a Content-Length, which
 * src/graphql/plain-post.ts leaves to Yoga's HTTP layer; otherwise it is a plain POST.
 */
function post(body: string, headers: Record<string, string>, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${app.url}/graphql`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const { date: _date, ...rest } = res.headers;
          resolve({
            status: res.statusCode ?? 0,
            headers: rest,
            body: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    req.on('error', reject);
    // A body given to end() alone gets a Content-Length from node:http; written first, it is chunked.
    if (chunked) req.write(body);
    req.end(chunked ? undefined : body);
  });
}

/** The same request, answered by the plain path and by Yoga's HTTP layer. */
async function bothWays(body: string, headers: Record<string, string> = {}) {
  const plain = await post(body, headers, false);
  const viaYoga = await post(body, headers, true);
  return { plain, viaYoga };
}

/**
 * The same request three times on the plain path (interpreted, then compiled by Yoga's run,
 * then run prepared: src/graphql/prepared-run.ts), and once by Yoga's HTTP layer.
 */
async function everyWay(body: string, headers: Record<string, string> = {}) {
  const plain: Answer[] = [];
  for (let run = 0; run < 3; run++) plain.push(await post(body, headers, false));
  return { plain, viaYoga: await post(body, headers, true) };
}

async function operationsCounted(): Promise<number> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${OPERATION_METRICS.requests}{`) && line.includes('graphql'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
/** What @urql/core sends by default. */
const URQL_ACCEPT = `${GRAPHQL_RESPONSE}, application/graphql+json, application/json, text/event-stream, multipart/mixed`;
const ITEM = 'query ($code: String!) { item(code: $code) { kind code hits author { handle } } }';

describe('a plain POST to /graphql (src/graphql/plain-post.ts)', () => {
  it('answers exactly what Yoga answers: status, headers and bytes', async () => {
    // Read once first, so the hit is counted before the compared reads.
    await post(JSON.stringify({ query: ITEM, variables: { code } }), {}, false);
    const cases: [string, Record<string, string>][] = [
      [JSON.stringify({ query: ITEM, variables: { code } }), {}],
      [JSON.stringify({ query: ITEM, variables: { code }, operationName: null }), {}],
      [JSON.stringify({ query: '{ version }' }), { accept: 'application/json' }],
      [JSON.stringify({ query: '{ version }' }), { authorization: 'Bearer pgw_nope' }],
      [JSON.stringify({ query: '{ item(code: "zzzzz") { code } }' }), { accept: '*/*' }],
      // The GraphQL-over-HTTP media type, alone, as the spec recommends it and as urql sends it.
      [JSON.stringify({ query: ITEM, variables: { code } }), { accept: GRAPHQL_RESPONSE }],
      [
        JSON.stringify({ query: ITEM, variables: { code } }),
        { accept: `${GRAPHQL_RESPONSE}, application/json;q=0.9` },
      ],
      [JSON.stringify({ query: ITEM, variables: { code } }), { accept: URQL_ACCEPT }],
      [JSON.stringify({ query: '{ nope }' }), { accept: URQL_ACCEPT }],
      [JSON.stringify({ query: ITEM, variables: { code: 5 } }), { accept: GRAPHQL_RESPONSE }],
      [JSON.stringify({ query: '{ nope }' }), {}],
      [JSON.stringify({ query: '{ item(code: ' }), {}],
      [JSON.stringify({ query: ITEM, variables: { code: 5 } }), {}],
      [JSON.stringify({ query: '{ published(first: 100000) { edges { cursor } } }' }), {}],
      [JSON.stringify({ query: ITEM, variables: { code }, operationName: 'Missing' }), {}],
      [JSON.stringify({ query: '' }), {}],
      [JSON.stringify({ variables: {} }), {}],
      [JSON.stringify({ query: '{ version }', variables: [1] }), {}],
      [JSON.stringify({ query: '{ version }', extensions: {} }), {}],
      [JSON.stringify([{ query: '{ version }' }]), {}],
      ['{"query": ', {}],
      ['null', {}],
      ['', {}],
    ];
    for (const [body, headers] of cases) {
      const { plain, viaYoga } = await everyWay(body, headers);
      for (const [run, answer] of plain.entries())
        expect({ sent: body, run, ...answer }).toEqual({ sent: body, run, ...viaYoga });
    }
  });

  it('answers a compiled operation as Yoga does whatever its variables and token', async () => {
    const PAGE = 'query Page($n: Int) { published(first: $n) { edges { cursor } } }';
    const compiled = [
      JSON.stringify({ query: PAGE, variables: { n: 2 } }),
      JSON.stringify({ query: PAGE, variables: { n: 2 }, operationName: 'Page' }),
    ];
    for (const body of compiled) await everyWay(body);
    const cases: [string, Record<string, string>][] = [
      // Priced anew: over the limit, refused with the price.
      [JSON.stringify({ query: PAGE, variables: { n: 100000 } }), {}],
      [JSON.stringify({ query: PAGE, variables: { n: 'two' } }), {}],
      [JSON.stringify({ query: PAGE, variables: { n: 2 } }), { authorization: 'Bearer pgw_nope' }],
      [JSON.stringify({ query: PAGE, variables: { n: 2 }, operationName: '' }), {}],
      [JSON.stringify({ query: PAGE, variables: { n: 2 }, operationName: 'Other' }), {}],
      [JSON.stringify({ query: ITEM, variables: { code: 'zz' } }), {}],
      ...compiled.map((body): [string, Record<string, string>] => [body, {}]),
    ];
    for (const [body, headers] of cases) {
      const { plain, viaYoga } = await everyWay(body, headers);
      for (const [run, answer] of plain.entries())
        expect({ sent: body, run, ...answer }).toEqual({ sent: body, run, ...viaYoga });
    }
  });

  it('keeps the status Yoga gives an error (a bad token is 401), and runs an operation once', async () => {
    const { plain, viaYoga } = await bothWays(
      JSON.stringify({ query: 'mutation { publishKidlisp(source: "(wipe gold)") { code } }' }),
      { authorization: 'Bearer pgw_nope' },
    );
    expect(plain.status).toBe(401);
    expect(JSON.parse(plain.body).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(plain).toEqual(viaYoga);
    // A result with errors is handed to Yoga's HTTP layer, never run a second time.
    const before = await operationsCounted();
    const refused = await post(JSON.stringify({ query: ITEM, variables: { code: 5 } }), {}, false);
    expect(JSON.parse(refused.body).errors[0].extensions.code).toBe('INVALID_INPUT');
    expect(await operationsCounted()).toBe(before + 1);
  });

  it('answers a successful read with the cache headers of a POST', async () => {
    const answer = await post(JSON.stringify({ query: ITEM, variables: { code } }), {}, false);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.vary).toBe('Authorization');
    expect(JSON.parse(answer.body)).toMatchObject({
      data: { item: { kind: 'KIDLISP', code } },
      extensions: { cost: { requestedQueryCost: expect.any(Number) } },
    });
  });
});
