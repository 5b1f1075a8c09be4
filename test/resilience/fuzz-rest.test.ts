import fc from 'fast-check';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_EXTS } from '../../src/domain/media.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, type RawResponse } from '../support/http-client.js';
import {
  type BodyCase,
  bodyCase,
  encode,
  jsonish,
  kidlispSource,
  melodySource,
  operatorKey,
  pieceName,
  pieceSource,
  preview,
  restProblem,
  serialise,
  specialString,
  text,
} from './arbitraries.js';

/**
 * Property: whatever a client sends to a REST route, the answer is a 2xx (the input happened to
 * be valid) or a 4xx in the contract's error shape, promptly. Never a 5xx, never a hang.
 */

/** Requests per property run, sent concurrently over keep-alive connections. */
const BATCH = 20;
const NUM_RUNS = 100;
const CASES_PER_ROUTE = BATCH * NUM_RUNS; // 2,000
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);

let app: TestApp;
let client: HttpClient;
const uploaded = MEDIA_EXTS.map((ext) => `2026/07/08/fuzz.${ext}`);

beforeAll(async () => {
  app = await startTestApp();
  client = createHttpClient(app.url, { maxSockets: BATCH, timeoutMs: 10_000 });
  for (const slug of uploaded)
    await app.services.storage.put(slug, Buffer.from(slug), 'application/octet-stream');
  await app.db.handles.insertMany([
    { _id: 'acct-ada', handle: 'ada' },
    { _id: 'acct-üñí', handle: 'ünïcode' },
  ]);
  const when = Date.UTC(2026, 2, 1);
  await app.db.chat.system.insertMany(
    Array.from({ length: 200 }, (_, i) => ({
      _id: new ObjectId(),
      user: i % 2 ? 'acct-ada' : '',
      text: `message ${i} ✨ (a+)+$`,
      when: new Date(when + i * 60_000),
    })),
  );
  await app.db.chat.clock.insertMany(
    Array.from({ length: 50 }, (_, i) => ({
      _id: new ObjectId(),
      text: `tick ${i}`,
      when: new Date(when + i * 90_000),
    })),
  );
});

afterAll(async () => {
  client?.close();
  await app?.close();
});

interface Tally {
  cases: number;
  statuses: Map<number, number>;
}

/** Runs `numRuns` batches of BATCH cases; each batch goes out at once, and every answer is checked. */
async function checkRoute<T>(
  cases: fc.Arbitrary<T>,
  send: (input: T) => Promise<RawResponse>,
  problemOf: (response: RawResponse) => string | undefined,
): Promise<Tally> {
  const tally: Tally = { cases: 0, statuses: new Map() };
  await fc.assert(
    fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const responses = await Promise.all(batch.map(send));
      responses.forEach((response, i) => {
        tally.cases++;
        tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
        const problem = problemOf(response);
        if (problem) throw new Error(`${problem}\n  for input ${preview(batch[i])}`);
      });
    }),
    {
      numRuns: NUM_RUNS,
      seed: SEED,
      endOnFailure: false,
      interruptAfterTimeLimit: 60_000,
      markInterruptAsFailure: true,
    },
  );
  return tally;
}

function postCase(path: string) {
  return (input: BodyCase) =>
    client.send(path, {
      method: 'POST',
      body: serialise(input.body),
      headers: {
        ...(input.contentType === null ? {} : { 'content-type': input.contentType }),
        ...(input.authorization === null ? {} : { authorization: input.authorization }),
      },
    });
}

const published = (status: number) => (json: any) =>
  typeof json?.code === 'string' &&
  json.code.length > 0 &&
  typeof json.url === 'string' &&
  json.url.endsWith(json.code) &&
  json.cached === (status === 200);

/** Publishing routes answer 201 for new content and 200 for known content. */
const publishProblem = (response: RawResponse) => restProblem(response, published(response.status));

function expectBothOutcomes(tally: Tally) {
  expect(tally.cases).toBeGreaterThanOrEqual(CASES_PER_ROUTE);
  const statuses = [...tally.statuses.keys()];
  // The generators reach valid inputs as well as invalid ones.
  expect(
    statuses.some((status) => status < 300),
    JSON.stringify([...tally.statuses]),
  ).toBe(true);
  expect(
    statuses.some((status) => status >= 400),
    JSON.stringify([...tally.statuses]),
  ).toBe(true);
}

describe(`REST routes under property-based bad input (${CASES_PER_ROUTE} cases each, seed ${SEED})`, () => {
  it('POST /api/store-kidlisp', async () => {
    expectBothOutcomes(
      await checkRoute(
        bodyCase({ source: kidlispSource }),
        postCase('/api/store-kidlisp'),
        publishProblem,
      ),
    );
  });

  it('POST /api/store-clock', async () => {
    expectBothOutcomes(
      await checkRoute(
        bodyCase({ source: melodySource, melody: melodySource }),
        postCase('/api/store-clock'),
        publishProblem,
      ),
    );
  });

  it('POST /api/store-piece', async () => {
    expectBothOutcomes(
      await checkRoute(
        bodyCase({ source: pieceSource, name: pieceName }),
        postCase('/api/store-piece'),
        publishProblem,
      ),
    );
  });

  it('POST /api/track-media', async () => {
    const slug = fc.oneof(
      fc.constantFrom(...uploaded),
      fc.constantFrom(...MEDIA_EXTS).map((ext) => `2026/07/08/missing.${ext}`),
      fc
        .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...MEDIA_EXTS))
        .map(([name, ext]) => `2026/07/08/${name}.${ext}`),
      text,
    );
    const ext = fc.oneof(
      fc.constantFrom(...MEDIA_EXTS, 'gif', 'PNG', 'png ', '', '.png', 'exe'),
      text,
    );
    const metadata = fc.oneof(
      fc.record(
        {
          totalDuration: fc.oneof(
            fc.double(),
            fc.integer(),
            fc.constantFrom(0, 30, 30.0001, -0.5, 1e308),
            text,
            jsonish,
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, {}, [], 'tape'),
      fc.dictionary(operatorKey, jsonish, { maxKeys: 2 }),
    );
    const trackedProblem = (response: RawResponse) =>
      restProblem(
        response,
        (json) =>
          response.status === 200 &&
          typeof json?.code === 'string' &&
          typeof json.slug === 'string' &&
          typeof json.cached === 'boolean',
      );
    // Slug and ext that agree (uploaded or not), so valid registrations, 404s and tape limits come up too.
    const coherent = fc
      .record({
        ext: fc.constantFrom(...MEDIA_EXTS),
        uploadedFile: fc.boolean(),
        name: fc.string({ maxLength: 10 }),
        metadata: fc.option(metadata, { nil: undefined }),
      })
      .map(
        ({ ext, uploadedFile, name, metadata }): BodyCase => ({
          body: {
            json: {
              slug: uploadedFile ? `2026/07/08/fuzz.${ext}` : `2026/07/08/${name}.${ext}`,
              ext,
              ...(metadata === undefined ? {} : { metadata }),
            },
          },
          contentType: 'application/json',
          authorization: null,
        }),
      );
    const cases = fc.oneof(
      { weight: 2, arbitrary: bodyCase({ slug, ext, metadata }) },
      { weight: 1, arbitrary: coherent },
    );
    expectBothOutcomes(await checkRoute(cases, postCase('/api/track-media'), trackedProblem));
  });

  it('GET /api/chat-messages with arbitrary query strings', async () => {
    const names = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom('instance', 'limit', 'before', 'search', 'q', 'from'),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'instance[]',
          'from[$ne]',
          'search[$regex]',
          'q[$gt]',
          'limit[$gt]',
          'before[0]',
          'from[a][b]',
          'search[]',
          '__proto__',
          'constructor[prototype]',
          '__proto__[x]',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    );
    const values = fc.oneof(
      fc.constantFrom(
        'system',
        'clock',
        'all',
        'SYSTEM',
        ' all ',
        '',
        '0',
        '1',
        '50',
        '100',
        '101',
        '-1',
        '1e2',
        '0x10',
        '1.5',
        ' 7 ',
        'NaN',
        'Infinity',
      ),
      fc.constantFrom(
        '2026-03-01T12:00:00Z',
        '2026-03-01',
        '2026-02-30T00:00:00Z',
        '2026-03-01T12:00:00+25:00',
        'yesterday',
        '0',
        '-1',
        '+275760-09-13T00:00:00.000Z',
      ),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constantFrom(
        '@ada',
        'ada',
        '@',
        '@@ada',
        'ünïcode',
        '@ünïcode',
        'a'.repeat(65),
        '.*',
        '(a+)+$',
        '$ne',
      ),
      fc.integer().map(String),
      text.map((value) => value.slice(0, 1_000)),
      specialString,
    );
    /** Mostly percent-encoded; sometimes raw characters and broken escapes (printable ASCII only, as HTTP requires). */
    const junk = fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4',
      '+',
      '&&',
      '==',
      ';',
      '%00',
      '%C0%AF',
      '%ED%A0%80',
      '[',
      ']]',
      '%5B%24ne%5D',
    );
    const pair = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .tuple(names, values)
          .map(
            ([name, value]) =>
              `${encode(name).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%24/g, '$')}=${encode(value)}`,
          ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(names, junk).map(([name, value]) => `${encode(name)}=${value}`),
      },
      { weight: 1, arbitrary: junk },
    );
    const query = fc.record({ pairs: fc.array(pair, { maxLength: 8 }), alias: fc.boolean() });
    const chatProblem = (response: RawResponse) =>
      restProblem(
        response,
        (json) =>
          response.status === 200 &&
          ['system', 'clock', 'all'].includes(json?.instance) &&
          Array.isArray(json.messages) &&
          json.count === json.messages.length &&
          (json.nextBefore === null || typeof json.nextBefore === 'string'),
      );
    const tally = await checkRoute(
      query,
      ({ pairs, alias }) =>
        client.get(`${alias ? '/api/chat/messages' : '/api/chat-messages'}?${pairs.join('&')}`),
      chatProblem,
    );
    expectBothOutcomes(tally);
  });

  it('still answers health checks after all that', async () => {
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/readyz')).status).toBe(200);
    // Over-long sources never made it into the database (limits count characters: code points).
    const longest = async (collection: 'kidlisp' | 'clocks' | 'pieces') => {
      const docs = await app.db[collection].find({}, { projection: { source: 1 } }).toArray();
      return Math.max(0, ...docs.map((doc) => [...(doc.source ?? '')].length));
    };
    expect(await longest('kidlisp')).toBeLessThanOrEqual(50_000);
    expect(await longest('clocks')).toBeLessThanOrEqual(10_000);
    expect(await longest('pieces')).toBeLessThanOrEqual(100_000);
  });
});
