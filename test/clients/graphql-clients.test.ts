import { createHash } from 'node:crypto';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { cacheExchange, createClient, fetchExchange } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, httpFetch } from '../support/http-client.js';

/**
 * Third-party GraphQL clients as their users set them up: urql with its defaults (queries over
 * GET within the URL limit), Apollo Client's BatchHttpLink (a JSON array of operations) and
 * its persisted-query link (a hash first, the document only when the service asks for it).
 */

let app: TestApp;
let http: HttpClient;

beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_PUBLISH: '3' });
  http = createHttpClient(app.url);
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

interface Sent {
  method: string;
  url: string;
  body: string | undefined;
  status: number;
  cacheControl: string | null;
}

/** A fetch for the clients that records what they send and what comes back. */
function recordingFetch(log: Sent[]): typeof fetch {
  return async (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await httpFetch(url, init);
    log.push({
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      body: typeof init.body === 'string' ? init.body : undefined,
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
    });
    return response;
  };
}

const VERSION = 'query Version { version }';
const PUBLISH =
  'mutation Publish($source: String!) { publishKidlisp(source: $source) { code cached } }';

describe('urql with its defaults', () => {
  it('runs a query over GET and a mutation over POST', async () => {
    const log: Sent[] = [];
    const client = createClient({
      url: `${app.url}/graphql`,
      exchanges: [cacheExchange, fetchExchange],
      fetch: recordingFetch(log),
    });
    const query = await client.query(VERSION, {}).toPromise();
    expect(query.error).toBeUndefined();
    expect(query.data).toEqual({ version: '1.1.0' });
    expect(log[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(log[0]?.cacheControl).toMatch(/^public/);

    const mutation = await client.mutation(PUBLISH, { source: '(wipe olive) ; urql' }).toPromise();
    expect(mutation.error).toBeUndefined();
    expect(mutation.data.publishKidlisp).toMatchObject({ cached: false });
    expect(log[1]).toMatchObject({ method: 'POST', status: 200 });
  });

  it('gets the same answer and the same error on every run, once the service compiles them', async () => {
    const client = createClient({
      url: `${app.url}/graphql`,
      exchanges: [fetchExchange],
      fetch: recordingFetch([]),
    });
    const READ = `query Read($code: String!, $first: Int) {
      item(code: $code) { code }
      published(first: $first) { edges { cursor } }
    }`;
    const answers = [];
    for (let run = 0; run < 3; run++) {
      const result = await client.query(READ, { code: 'nothere', first: 5000 }).toPromise();
      answers.push({
        data: result.data,
        errors: result.error?.graphQLErrors.map(({ message, locations, path, extensions }) => ({
          message,
          locations,
          path,
          extensions,
        })),
      });
    }
    expect(answers[0]).toEqual({
      data: { item: null, published: null },
      errors: [
        {
          message: 'first cannot exceed 100.',
          // Where in the document urql printed (and sent) the field.
          locations: [{ line: expect.any(Number), column: expect.any(Number) }],
          path: ['published'],
          extensions: { code: 'LIMIT_TOO_LARGE', field: 'first' },
        },
      ],
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});

describe('GraphQL over GET', () => {
  it('answers a query in the URL, as curl sends it', async () => {
    const answer = await http.get(`/graphql?query=${encodeURIComponent('{version}')}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      data: { version: '1.1.0' },
      extensions: { cost: { requestedQueryCost: 0, maximumAvailable: 5000 } },
    });
  });

  it('refuses a mutation with 405 MUTATION_REQUIRES_POST, and publishes nothing', async () => {
    const source = '(wipe red) ; over GET';
    const answer = await http.get(
      `/graphql?query=${encodeURIComponent(`mutation { publishKidlisp(source: ${JSON.stringify(source)}) { code } }`)}`,
    );
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expect(answer.json.errors[0].extensions.code).toBe('MUTATION_REQUIRES_POST');
    expect(await app.db.kidlisp.countDocuments({ source })).toBe(0);
  });

  it('marks an answer to a request with a token private, and every answer Vary: Authorization', async () => {
    const { token } = await createApiToken(app.db, { handle: 'getter' });
    const anonymous = await http.get('/graphql?query={version}');
    const withToken = await http.get('/graphql?query={version}', {
      authorization: `Bearer ${token}`,
    });
    expect(anonymous.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(withToken.headers['cache-control']).toMatch(/^private/);
    for (const answer of [anonymous, withToken])
      expect(answer.headers.vary).toMatch(/Authorization/);
  });

  it.each([
    [
      'a body that is not JSON',
      { method: 'POST', body: '{version}', contentType: 'text/plain' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['an Accept it cannot answer', { headers: { accept: 'text/xml' } }, 406, 'NOT_ACCEPTABLE'],
  ] as const)('refuses %s in the error shape, with a code', async (_label, options, status, code) => {
    const answer = await http.send('/graphql?query={version}', options);
    expect(answer.status).toBe(status);
    expect(answer.json.errors[0].extensions.code).toBe(code);
  });

  it('never lets a cache keep an error', async () => {
    const answer = await http.get('/graphql?query={nope}');
    expect(answer.json.errors[0].extensions.code).toBe('INVALID_INPUT');
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("Apollo Client's persisted-query link", () => {
  const apollo = (log: Sent[]) =>
    new ApolloClient({
      cache: new InMemoryCache(),
      link: createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: `${app.url}/graphql`, fetch: recordingFetch(log) }),
      ),
      defaultOptions: { query: { fetchPolicy: 'no-cache' } },
    });

  it('sends a hash, is asked for the document once, then the hash alone serves over GET', async () => {
    const first: Sent[] = [];
    const result = await apollo(first).query({ query: gql(VERSION) });
    expect(result.data).toEqual({ version: '1.1.0' });
    // The hash over GET -> PERSISTED_QUERY_NOT_FOUND; the document and hash over POST.
    expect(first.map((sent) => sent.method)).toEqual(['GET', 'POST']);
    expect(first[0]?.url).toContain('persistedQuery');
    expect(first[0]?.url).not.toContain('query=');

    const later: Sent[] = [];
    expect((await apollo(later).query({ query: gql(VERSION) })).data).toEqual({ version: '1.1.0' });
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(later[0]?.cacheControl).toMatch(/^public/);
  });

  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND', async () => {
    const extensions = JSON.stringify({
      persistedQuery: { version: 1, sha256Hash: sha256('{ nothing }') },
    });
    const answer = await http.get(`/graphql?extensions=${encodeURIComponent(extensions)}`);
    expect(answer.status).toBe(200);
    expect(answer.json.errors[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
  });

  it('refuses a document whose hash is not its SHA-256', async () => {
    const answer = await http.post('/graphql', {
      query: '{ version }',
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ other }') } },
    });
    expect(answer.json.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
  });

  it('runs a mutation (over POST)', async () => {
    const log: Sent[] = [];
    const result = await apollo(log).mutate({
      mutation: gql(PUBLISH),
      variables: { source: '(wipe maroon) ; apollo apq' },
    });
    expect(result.data.publishKidlisp).toMatchObject({ cached: false });
    expect(log.every((sent) => sent.method === 'POST')).toBe(true);
  });
});

describe("Apollo Client's BatchHttpLink", () => {
  const batched = (log: Sent[]) =>
    new ApolloClient({
      cache: new InMemoryCache(),
      link: new BatchHttpLink({
        uri: `${app.url}/graphql`,
        batchMax: 10,
        batchInterval: 20,
        fetch: recordingFetch(log),
      }),
      defaultOptions: { query: { fetchPolicy: 'no-cache' } },
    });

  it('runs a query and a mutation in one request', async () => {
    const log: Sent[] = [];
    const client = batched(log);
    const [query, mutation] = await Promise.all([
      client.query({ query: gql(VERSION) }),
      client.mutate({ mutation: gql(PUBLISH), variables: { source: '(wipe navy) ; batched' } }),
    ]);
    expect(query.data).toEqual({ version: '1.1.0' });
    expect(mutation.data.publishKidlisp).toMatchObject({ cached: false });
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]?.body ?? 'null')).toHaveLength(2);
  });
});

describe('a batch', () => {
  const publish = (source: string) => ({
    query: 'mutation ($s: String!) { publishKidlisp(source: $s) { code } }',
    variables: { s: source },
  });

  it('is rate-limited operation by operation, as if each were sent alone', async () => {
    // A fresh client address budget of 3 (RATE_LIMIT_PUBLISH) per window; earlier tests used some.
    const answer = await http.post(
      '/graphql',
      Array.from({ length: 6 }, (_, index) => publish(`(wipe ${index}) ; batch rate`)),
      { 'x-forwarded-for': '203.0.113.9' },
    );
    expect(answer.status).toBe(200);
    const codes = (
      answer.json as { data?: unknown; errors?: { extensions: { code: string } }[] }[]
    ).map((one) => one.errors?.[0]?.extensions.code ?? 'OK');
    expect(codes.filter((code) => code === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(3);
    expect(codes.filter((code) => code === 'OK').length).toBeLessThanOrEqual(3);
  });

  it('has each operation checked by the query limits alone', async () => {
    const aliases = Array.from({ length: 16 }, (_, index) => `a${index}: version`).join(' ');
    const answer = await http.post('/graphql', [
      { query: '{ version }' },
      { query: `{ ${aliases} }` },
    ]);
    const [small, wide] = answer.json as { data?: unknown; errors?: unknown[] }[];
    expect(small).toEqual({
      data: { version: '1.1.0' },
      extensions: { cost: { requestedQueryCost: 0, maximumAvailable: 5000 } },
    });
    expect(wide?.errors).toHaveLength(1);
  });

  it('of more than 10 operations is refused with BATCH_TOO_LARGE', async () => {
    const answer = await http.post(
      '/graphql',
      Array.from({ length: 11 }, () => ({ query: '{ version }' })),
    );
    expect(answer.status).toBe(413);
    expect(answer.json.errors[0].extensions.code).toBe('BATCH_TOO_LARGE');
  });
});
