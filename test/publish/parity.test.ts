import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, postJson, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.service.services.storage.put('2026/07/08/pair.png', Buffer.from('png'), 'image/png');
});
afterAll(() => app.close());

const cases = [
  { path: '/api/store-kidlisp', field: 'publishKidlisp', args: { source: '(wipe plum)' }, signature: '$source: String!', pass: 'source: $source' },
  { path: '/api/store-clock', field: 'publishClock', args: { source: 'c e g' }, signature: '$source: String!', pass: 'source: $source' },
  {
    path: '/api/store-piece',
    field: 'publishPiece',
    args: { source: 'export function paint() {}', name: 'Twin' },
    signature: '$source: String!, $name: String',
    pass: 'source: $source, name: $name',
  },
  { path: '/api/store-kidlisp', field: 'publishKidlisp', args: { source: 'x'.repeat(50_001) }, signature: '$source: String!', pass: 'source: $source' },
  { path: '/api/store-piece', field: 'publishPiece', args: { source: '// export default' }, signature: '$source: String!', pass: 'source: $source' },
];

describe('REST and GraphQL are faces of the same operations', () => {
  it.each(cases)('$field gives the same result or error both ways', async ({ path, field, args, signature, pass }) => {
    const rest = await postJson(app.url + path, args);
    const viaGraphql = await graphql(app.url, `mutation (${signature}) { ${field}(${pass}) { code url cached } }`, args);
    if (rest.status >= 400) {
      expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe(rest.body?.code);
      expect(viaGraphql.body.errors?.[0]?.message).toBe(rest.body?.message);
    } else {
      expect(viaGraphql.body.data?.[field]).toEqual({ ...rest.body, cached: true });
    }
  });

  it('trackMedia gives the same answer both ways', async () => {
    const rest = await postJson(`${app.url}/api/track-media`, { slug: '2026/07/08/pair.png', ext: 'png' });
    const viaGraphql = await graphql(
      app.url,
      'mutation { trackMedia(slug: "2026/07/08/pair.png", ext: png) { code slug url cached } }',
    );
    expect(viaGraphql.body.data?.trackMedia).toEqual({ ...rest.body, cached: true });
    const tooLong = await graphql(app.url, 'mutation { trackMedia(slug: "2026/07/08/t.zip", ext: zip, metadata: { totalDuration: 30.5 }) { code } }');
    expect(tooLong.body.errors?.[0]?.extensions).toMatchObject({ code: 'TAPE_TOO_LONG', maxDuration: 30 });
  });

  it('never leaks internals through GraphQL', async () => {
    const response = await graphql(app.url, '{ version }');
    expect(response.body.data).toEqual({ version: '1.1.0' });
    const bad = await graphql(app.url, 'mutation { publishPiece(source: "export function paint( {") { code } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('PIECE_SYNTAX');
    expect(JSON.stringify(bad.body)).not.toMatch(/stack|node_modules|\.ts:\d+/);
  });
});

describe('errors graphql finds before any resolver', () => {
  it.each([
    ['a syntax error', 'mutation { publishKidlisp(source: ) { code } }', {}],
    ['an unknown field', '{ nothingHere }', {}],
    ['a variable of the wrong type', 'mutation ($source: String!) { publishKidlisp(source: $source) { code } }', { source: { $gt: '' } }],
  ])('carry INVALID_INPUT for %s', async (_label, query, variables) => {
    const response = await graphql(app.url, query, variables);
    expect(response.body.errors?.length).toBeGreaterThan(0);
    for (const error of response.body.errors ?? []) expect(error.extensions?.code).toBe('INVALID_INPUT');
  });
});
