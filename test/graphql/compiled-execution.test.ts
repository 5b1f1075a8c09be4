import { type ExecutionArgs, execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/context.js';
import { CompiledOperations, useCompiledExecution } from '../../src/graphql/compiled-execution.js';
import { schema } from '../../src/graphql/index.js';
import { useSeededApp } from '../items/fixtures.js';

const fixture = useSeededApp();

const ITEM = `query ($code: String!) {
  item(code: $code) {
    __typename kind code url when hits author { handle }
    ... on KidlispItem { source }
    ... on ClockItem { melody { valid notes } }
  }
}`;

/**
 * The same request three times: the first runs interpreted, the later ones compiled. The bodies
 * must be the same bytes, so the same keys in the same order too.
 */
async function threeRuns(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const responses = [];
  for (let run = 0; run < 3; run++)
    responses.push(await fixture.http.graphql(query, variables, headers));
  const [first, second, third] = responses;
  expect(second?.text, 'second run').toBe(first?.text);
  expect(third?.text, 'third run').toBe(first?.text);
  expect([second?.status, third?.status]).toEqual([first?.status, first?.status]);
  return { status: first?.status, body: first?.json } as {
    status: number;
    body: { data?: any; errors?: any[] };
  };
}

describe('a repeated operation answers as it did the first time', () => {
  it('an item of each kind, through its own type', async () => {
    const kidlisp = await threeRuns(ITEM, { code: fixture.seeded.kidlisp });
    // The spec's order: the selection set's, whichever field resolved first (author waits on a query).
    expect(Object.keys(kidlisp.body.data.item)).toEqual([
      '__typename',
      'kind',
      'code',
      'url',
      'when',
      'hits',
      'author',
      'source',
    ]);
    expect(kidlisp.body.data.item).toMatchObject({
      __typename: 'KidlispItem',
      source: '(wipe navy) ; seeded',
      author: { handle: '@maker' },
    });
    const clock = await threeRuns(ITEM, { code: `clock~${fixture.seeded.clock}` });
    expect(clock.body.data.item).toMatchObject({
      __typename: 'ClockItem',
      melody: { valid: true, notes: 5 },
    });
    expect((await threeRuns(ITEM, { code: 'nothere' })).body).toEqual({
      data: { item: null },
      extensions: { cost: { requestedQueryCost: 4, maximumAvailable: 5000 } },
    });
  });

  it('a variable of the wrong type, or missing, in graphql-js words', async () => {
    const wrongType = await threeRuns(ITEM, { code: 5 });
    expect(wrongType.body.errors?.[0]).toMatchObject({
      message:
        'Variable "$code" got invalid value 5; String cannot represent a non string value: 5',
      extensions: { code: 'INVALID_INPUT' },
    });
    const missing = await threeRuns(ITEM, {});
    expect(missing.body.errors?.[0]).toMatchObject({
      message: 'Variable "$code" of required type "String!" was not provided.',
      extensions: { code: 'INVALID_INPUT' },
    });
  });

  it("an operation's own refusal keeps its code, path and place in the document", async () => {
    const tooMany = await threeRuns(
      'query ($n: Int) { published(first: $n) { edges { cursor } } }',
      { n: 5000 },
    );
    expect(tooMany.body.errors).toEqual([
      {
        message: 'first cannot exceed 100.',
        path: ['published'],
        locations: [{ line: 1, column: 19 }],
        extensions: { code: 'LIMIT_TOO_LARGE', field: 'first' },
      },
    ]);
    const empty = await threeRuns(
      'mutation ($s: String!) {\n  publishKidlisp(source: $s) { code }\n}',
      { s: '' },
    );
    expect(empty.body.errors?.[0]).toMatchObject({
      path: ['publishKidlisp'],
      message: 'source is empty.',
      locations: [{ line: 2, column: 3 }],
      extensions: { code: 'SOURCE_REQUIRED' },
    });
  });

  it('lists, aliases, fragments, directives and introspection', async () => {
    const mixed = await threeRuns(
      `query ($codes: [String!]!, $withAuthor: Boolean!, $handle: String!) {
        listed: items(codes: $codes) { __typename code ...Who }
        author(handle: $handle) { handle works(first: 2, sort: RECENT) { edges { node { code } } pageInfo { hasNextPage } } }
        published(first: 3, kind: CLOCK) { edges { node { address ... on ClockItem { melody { tracks } } } } }
        __type(name: "PublishedItem") { kind possibleTypes { name } }
      }
      fragment Who on PublishedItem { author @include(if: $withAuthor) { handle } }`,
      {
        codes: [fixture.seeded.piece, 'nothere', fixture.seeded.painting],
        withAuthor: true,
        handle: '@maker',
      },
    );
    expect(mixed.body.errors).toBeUndefined();
    expect(mixed.body.data.listed).toEqual([
      { __typename: 'PieceItem', code: fixture.seeded.piece, author: { handle: '@maker' } },
      null,
      { __typename: 'PaintingItem', code: fixture.seeded.painting, author: null },
    ]);
    expect(mixed.body.data.author.works.edges).toHaveLength(2);
    expect(mixed.body.data.published.edges[0].node.address).toBe(`clock~${fixture.seeded.clock}`);
    expect(mixed.body.data.__type.possibleTypes).toHaveLength(5);
  });

  it('a bad token is refused with its 401', async () => {
    const refused = await threeRuns('{ viewer { handle } }', {}, { authorization: 'Bearer nope' });
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('useCompiledExecution', () => {
  it('interprets an operation once, then runs it compiled, with the same result', async () => {
    let interpreted = 0;
    const plugin = useCompiledExecution(new CompiledOperations(), (args: ExecutionArgs) => {
      interpreted++;
      return execute(args);
    });
    const document = parse(ITEM);
    const results = [];
    for (let run = 0; run < 3; run++) {
      let chosen: ((args: ExecutionArgs) => unknown) | undefined;
      // As Yoga calls it for each request.
      (plugin.onExecute as (payload: unknown) => void)({
        setExecuteFn: (fn: typeof chosen) => {
          chosen = fn;
        },
      });
      const contextValue = await createRequestContext(fixture.app.services, {
        authorization: undefined,
        clientAddress: '10.1.2.3',
      });
      results.push(
        await chosen?.({
          schema,
          document,
          variableValues: { code: fixture.seeded.kidlisp },
          contextValue,
        }),
      );
    }
    expect(interpreted).toBe(1);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]).toMatchObject({ data: { item: { code: fixture.seeded.kidlisp } } });
  });

  it('keeps each named operation of a document apart', async () => {
    const query =
      'query Version { version } query Item($code: String!) { item(code: $code) { code } }';
    for (let run = 0; run < 3; run++) {
      const version = await fixture.http.send('/graphql', {
        method: 'POST',
        body: JSON.stringify({ query, operationName: 'Version' }),
      });
      const item = await fixture.http.send('/graphql', {
        method: 'POST',
        body: JSON.stringify({
          query,
          operationName: 'Item',
          variables: { code: fixture.seeded.piece },
        }),
      });
      expect(version.json, `run ${run + 1}`).toEqual({
        data: { version: expect.any(String) },
        extensions: { cost: { requestedQueryCost: 0, maximumAvailable: 5000 } },
      });
      expect(item.json, `run ${run + 1}`).toEqual({
        data: { item: { code: fixture.seeded.piece } },
        extensions: { cost: { requestedQueryCost: 1, maximumAvailable: 5000 } },
      });
    }
  });
});
