import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.service.services.storage.put('2026/07/08/pair.png', Buffer.from('png'), 'image/png');
});
afterAll(() => app.close());

const cases = [
  {
    path: '/api/store-kidlisp',
    field: 'publishKidlisp',
    args: { source: '(wipe plum)' },
    signature: '$source: String!',
    pass: 'source: $source',
    status: 201,
  },
  {
    path: '/api/store-clock',
    field: 'publishClock',
    args: { source: 'c e g' },
    signature: '$source: String!',
    pass: 'source: $source',
    status: 201,
  },
  {
    path: '/api/store-piece',
    field: 'publishPiece',
    args: { source: 'export function paint() {}', name: 'Twin' },
    signature: '$source: String!, $name: String',
    pass: 'source: $source, name: $name',
    status: 201,
  },
  {
    path: '/api/store-kidlisp',
    field: 'publishKidlisp',
    args: { source: 'x'.repeat(50_001) },
    signature: '$source: String!',
    pass: 'source: $source',
    status: 400,
    code: 'SOURCE_TOO_LONG',
  },
  {
    path: '/api/store-piece',
    field: 'publishPiece',
    args: { source: '// export default' },
    signature: '$source: String!',
    pass: 'source: $source',
    status: 400,
    code: 'PIECE_NO_LIFECYCLE',
  },
] as const satisfies readonly {
  path: string;
  field: string;
  args: Record<string, string>;
  signature: string;
  pass: string;
  status: number;
  code?: string;
}[];

describe('REST and GraphQL are faces of the same operations', () => {
  it.each(cases)('$field answers $status both ways ($path)', async (testCase) => {
    const { path, field, args, signature, pass, status } = testCase;
    const rest = await postJson(app.url + path, args);
    expect(rest.status, JSON.stringify(rest.body)).toBe(status);
    const viaGraphql = await graphql(
      app.url,
      `mutation (${signature}) { ${field}(${pass}) { code url cached } }`,
      args,
    );
    if ('code' in testCase) {
      expect(rest.body).toMatchObject({ code: testCase.code });
      expect(typeof rest.body?.message).toBe('string');
      expect(viaGraphql.body.data?.[field] ?? null).toBeNull();
      expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe(testCase.code);
      expect(viaGraphql.body.errors?.[0]?.message).toBe(rest.body?.message);
    } else {
      expect(rest.body).toMatchObject({
        cached: false,
        code: expect.any(String),
        url: expect.stringContaining(rest.body?.code),
      });
      expect(viaGraphql.body.errors).toBeUndefined();
      expect(viaGraphql.body.data?.[field]).toEqual({ ...rest.body, cached: true });
    }
  });

  it('trackMedia gives the same answer both ways', async () => {
    const rest = await postJson(`${app.url}/api/track-media`, {
      slug: '2026/07/08/pair.png',
      ext: 'png',
    });
    const viaGraphql = await graphql(
      app.url,
      'mutation { trackMedia(slug: "2026/07/08/pair.png", ext: png) { code slug url cached } }',
    );
    expect(viaGraphql.body.data?.trackMedia).toEqual({ ...rest.body, cached: true });
    const tooLong = await graphql(
      app.url,
      'mutation { trackMedia(slug: "2026/07/08/t.zip", ext: zip, metadata: { totalDuration: 30.5 }) { code } }',
    );
    expect(tooLong.body.errors?.[0]?.extensions).toMatchObject({
      code: 'TAPE_TOO_LONG',
      maxDuration: 30,
    });
  });

  it('never leaks internals through GraphQL', async () => {
    const response = await graphql(app.url, '{ version }');
    expect(response.body.data).toEqual({ version: '1.1.0' });
    const bad = await graphql(
      app.url,
      'mutation { publishPiece(source: "export function paint( {") { code } }',
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('PIECE_SYNTAX');
    expect(JSON.stringify(bad.body)).not.toMatch(/stack|node_modules|\.ts:\d+/);
  });
});

describe('errors graphql finds before any resolver', () => {
  it.each([
    ['a syntax error', 'mutation { publishKidlisp(source: ) { code } }', {}],
    ['an unknown field', '{ nothingHere }', {}],
    [
      'a variable of the wrong type',
      'mutation ($source: String!) { publishKidlisp(source: $source) { code } }',
      { source: { $gt: '' } },
    ],
  ])('carry INVALID_INPUT for %s', async (_label, query, variables) => {
    const response = await graphql(app.url, query, variables);
    expect(response.body.errors?.length).toBeGreaterThan(0);
    for (const error of response.body.errors ?? [])
      expect(error.extensions?.code).toBe('INVALID_INPUT');
  });
});
