import fc from 'fast-check';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_EXTS } from '../../src/domain/media.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, type RawResponse } from '../support/http-client.js';
import {
  graphqlProblem,
  jsonish,
  kidlispSource,
  melodySource,
  pieceName,
  pieceSource,
  preview,
  specialString,
  text,
} from './arbitraries.js';

/**
 * Property: whatever values a client passes to any GraphQL argument (as variables or inline
 * literals), the answer is data or errors a client can act on: no 5xx, no INTERNAL, no stack,
 * and every field error carries the contract's machine code.
 */

const BATCH = 20;
const NUM_RUNS = 100;
const CASES_PER_OPERATION = BATCH * NUM_RUNS; // 2,000
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);

let app: TestApp;
let client: HttpClient;
const realCursors: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  client = createHttpClient(app.url, { maxSockets: BATCH, timeoutMs: 10_000 });
  for (const ext of MEDIA_EXTS)
    await app.services.storage.put(
      `2026/07/08/fuzz.${ext}`,
      Buffer.from(ext),
      'application/octet-stream',
    );
  await app.db.handles.insertOne({ _id: 'acct-ada', handle: 'ada' });
  const when = Date.UTC(2026, 2, 1);
  await app.db.chat.system.insertMany(
    Array.from({ length: 120 }, (_, i) => ({
      _id: new ObjectId(),
      user: i % 2 ? 'acct-ada' : undefined,
      text: `message ${i}`,
      when: new Date(when + Math.floor(i / 3) * 1000),
    })),
  );
  await app.db.chat.clock.insertMany(
    Array.from({ length: 40 }, (_, i) => ({
      _id: new ObjectId(),
      text: `tick ${i}`,
      when: new Date(when + i * 2000),
    })),
  );
  const page = await client.graphql(
    '{ chatMessages(first: 5, instance: all) { edges { cursor } } }',
  );
  realCursors.push(
    ...page.json.data.chatMessages.edges.map((edge: { cursor: string }) => edge.cursor),
  );
});

afterAll(async () => {
  client?.close();
  await app?.close();
});

interface ArgSpec {
  type: string;
  /** Values of the right GraphQL type, valid or not for the operation. */
  near: fc.Arbitrary<unknown>;
  /** An enum: inline values are written as names. */
  enumType?: boolean;
}

interface Operation {
  kind: 'query' | 'mutation';
  field: string;
  args: Record<string, ArgSpec>;
  selection: string;
  success: (value: any) => boolean;
}

interface Case {
  inline: boolean;
  args: Record<string, unknown>;
}

/** A GraphQL literal for a JSON-ish value (names for enums; invalid names make parse errors, which are fine). */
function literal(value: unknown, asEnum: boolean): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return asEnum ? value || '""' : JSON.stringify(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, asEnum)).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${key}: ${literal(item, asEnum)}`)
    .join(', ')}}`;
}

function document(
  operation: Operation,
  input: Case,
): { query: string; variables: Record<string, unknown> } {
  const present = Object.entries(input.args);
  if (input.inline) {
    const args = present
      .map(([name, value]) => `${name}: ${literal(value, operation.args[name]?.enumType ?? false)}`)
      .join(', ');
    return {
      query: `${operation.kind} { ${operation.field}${args ? `(${args})` : ''} ${operation.selection} }`,
      variables: {},
    };
  }
  const declared = Object.entries(operation.args)
    .map(([name, spec]) => `$${name}: ${spec.type}`)
    .join(', ');
  const passed = Object.keys(operation.args)
    .map((name) => `${name}: $${name}`)
    .join(', ');
  return {
    query: `${operation.kind} (${declared}) { ${operation.field}(${passed}) ${operation.selection} }`,
    variables: Object.fromEntries(present),
  };
}

function cases(operation: Operation): fc.Arbitrary<Case> {
  const value = (spec: ArgSpec) =>
    fc.oneof({ weight: 5, arbitrary: spec.near }, { weight: 1, arbitrary: jsonish });
  return fc.record({
    inline: fc.integer({ min: 0, max: 9 }).map((n) => n < 3), // 30% inline literals
    args: fc.record(
      Object.fromEntries(Object.entries(operation.args).map(([name, spec]) => [name, value(spec)])),
      { requiredKeys: [] },
    ),
  });
}

async function checkOperation(
  operation: Operation,
): Promise<{ cases: number; data: number; errors: Map<string, number> }> {
  const tally = { cases: 0, data: 0, errors: new Map<string, number>() };
  await fc.assert(
    fc.asyncProperty(
      fc.array(cases(operation), { minLength: BATCH, maxLength: BATCH }),
      async (batch) => {
        const responses: RawResponse[] = await Promise.all(
          batch.map((input) => {
            const { query, variables } = document(operation, input);
            return client.graphql(query, variables);
          }),
        );
        responses.forEach((response, i) => {
          tally.cases++;
          const code =
            response.json?.errors?.[0]?.extensions?.code ??
            (response.json?.errors ? 'request error' : 'data');
          tally.errors.set(code, (tally.errors.get(code) ?? 0) + 1);
          if (!response.json?.errors) tally.data++;
          const problem = graphqlProblem(response, operation.field, operation.success);
          if (problem)
            throw new Error(`${problem}\n  for ${preview(document(operation, batch[i] as Case))}`);
        });
      },
    ),
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

const published = (value: any) =>
  typeof value?.code === 'string' &&
  typeof value.url === 'string' &&
  typeof value.cached === 'boolean';
const int = fc.oneof(
  fc.integer({ min: -5, max: 120 }),
  fc.constantFrom(0, -1, 100, 101, 2 ** 31, -(2 ** 31) - 1, 1.5, 1e21),
);
const cursor = fc.oneof(
  fc.nat().map((i) => realCursors[i % Math.max(1, realCursors.length)] ?? ''),
  fc.string({ maxLength: 30 }),
  fc.base64String({ maxLength: 40 }),
  fc.constantFrom(
    '',
    'null',
    'eyJ9',
    'e30',
    Buffer.from('{"when":"x","id":"y"}').toString('base64url'),
    Buffer.from('[1,2]').toString('base64url'),
  ),
);

const operations: Operation[] = [
  {
    kind: 'mutation',
    field: 'publishKidlisp',
    args: { source: { type: 'String!', near: kidlispSource } },
    selection: '{ code url cached }',
    success: published,
  },
  {
    kind: 'mutation',
    field: 'publishClock',
    args: { source: { type: 'String!', near: melodySource } },
    selection: '{ code url cached }',
    success: published,
  },
  {
    kind: 'mutation',
    field: 'publishPiece',
    args: {
      source: { type: 'String!', near: pieceSource },
      name: { type: 'String', near: pieceName },
    },
    selection: '{ code url cached }',
    success: published,
  },
  {
    kind: 'mutation',
    field: 'trackMedia',
    args: {
      slug: {
        type: 'String!',
        near: fc.oneof(
          fc.constantFrom(...MEDIA_EXTS).map((ext) => `2026/07/08/fuzz.${ext}`),
          fc.constantFrom(...MEDIA_EXTS).map((ext) => `2026/07/08/missing.${ext}`),
          text,
        ),
      },
      ext: {
        type: 'MediaExt!',
        near: fc.oneof(fc.constantFrom(...MEDIA_EXTS), fc.constantFrom('gif', 'PNG', '', 'png ')),
        enumType: true,
      },
      metadata: {
        type: 'MediaMetadata',
        near: fc.oneof(
          fc.record(
            {
              totalDuration: fc.oneof(
                fc.double(),
                fc.integer(),
                fc.constantFrom(0, 30, 30.0001, -1, 1e308),
              ),
            },
            { requiredKeys: [] },
          ),
          fc.constantFrom(null, {}, { totalDuration: null }, { totalDuration: '5' }, { $gt: 0 }),
        ),
      },
    },
    selection: '{ code slug url cached }',
    success: (value) => published(value) && typeof value.slug === 'string',
  },
  {
    kind: 'query',
    field: 'chatMessages',
    args: {
      instance: {
        type: 'ChatInstance',
        near: fc.constantFrom('system', 'clock', 'all', 'SYSTEM', 'both', ''),
        enumType: true,
      },
      search: {
        type: 'String',
        near: fc.oneof(text, fc.constantFrom('message', '(a+)+$', '.*', 'x'.repeat(201))),
      },
      from: {
        type: 'String',
        near: fc.oneof(
          fc.constantFrom('ada', '@ada', '@', 'nobody', '$ne', 'a'.repeat(65)),
          specialString,
        ),
      },
      first: { type: 'Int', near: int },
      last: { type: 'Int', near: int },
      after: { type: 'String', near: cursor },
      before: { type: 'String', near: cursor },
    },
    selection:
      '{ edges { cursor node { id from text when instance hearts } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }',
    success: (value) =>
      Array.isArray(value?.edges) && typeof value.pageInfo?.hasNextPage === 'boolean',
  },
  {
    kind: 'query',
    field: 'previewKidlisp',
    args: { source: { type: 'String!', near: kidlispSource } },
    selection:
      '{ valid errors warnings stats { expressions functionsUsed hasAnimation lines } diagnostics { severity message line column } }',
    success: (value) => typeof value?.valid === 'boolean' && Array.isArray(value.errors),
  },
  {
    kind: 'query',
    field: 'topKidlisp',
    args: { limit: { type: 'Int', near: fc.oneof(int, fc.integer({ min: 1, max: 20 })) } },
    selection: '{ code source hits url }',
    success: (value) => Array.isArray(value),
  },
];

describe(`GraphQL arguments under property-based bad input (${CASES_PER_OPERATION} cases each, seed ${SEED})`, () => {
  it.each(
    operations.map((operation) => [operation.field, operation] as const),
  )('%s', async (_field, operation) => {
    const tally = await checkOperation(operation);
    expect(tally.cases).toBeGreaterThanOrEqual(CASES_PER_OPERATION);
    // The generators reach both valid inputs and rejected ones.
    expect(tally.data, JSON.stringify([...tally.errors])).toBeGreaterThan(0);
    expect(tally.cases - tally.data, JSON.stringify([...tally.errors])).toBeGreaterThan(0);
    expect(tally.errors.get('INTERNAL')).toBeUndefined();
  });

  it('still answers after all that', async () => {
    const response = await client.graphql('{ version }');
    expect(response.json).toEqual({
      data: { version: '1.1.0' },
      extensions: { cost: { requestedQueryCost: 0, maximumAvailable: 5000 } },
    });
  });
});
