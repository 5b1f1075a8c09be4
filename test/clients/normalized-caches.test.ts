import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { createClient, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, httpFetch } from '../support/http-client.js';

/**
 * Apollo Client's InMemoryCache and urql's graphcache with no key configuration: each keeps a
 * published item once, by its type and global id, so what one query reads updates the item
 * another query shows.
 */

let app: TestApp;
let http: HttpClient;
let newest = '';

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url);
  for (let index = 0; index < 3; index++) {
    const answer = await http.post('/api/store-kidlisp', { source: `(wipe ${index}) ; cached` });
    newest = answer.json.code;
  }
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

/** A fetch that counts the requests a client sends. */
function countingFetch(): { fetch: typeof fetch; sent: () => number } {
  let sent = 0;
  return {
    fetch: (input, init) => {
      sent++;
      return httpFetch(String(input instanceof Request ? input.url : input), init);
    },
    sent: () => sent,
  };
}

const ITEM = 'query Item($code: String!) { item(code: $code) { id code hits author { handle } } }';
const PAGE =
  'query Page { published(first: 5) { edges { node { id code hits author { handle } } } } }';

/** Another reader of the service changes the item: its hits, as a burst of clients would. */
const changeOnServer = (code: string, hits: number) =>
  app.db.kidlisp.updateOne({ code }, { $set: { hits } });

describe("Apollo Client's InMemoryCache, default configuration", () => {
  it('keeps an item once, so a page read over the network updates the item query', async () => {
    const counter = countingFetch();
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new HttpLink({ uri: `${app.url}/graphql`, fetch: counter.fetch }),
    });
    const first = await client.query({ query: gql(ITEM), variables: { code: newest } });
    const { id } = first.data.item;
    expect(client.cache.extract()[`KidlispItem:${id}`]).toMatchObject({ code: newest });

    await changeOnServer(newest, 41);
    const page = await client.query({ query: gql(PAGE), fetchPolicy: 'network-only' });
    expect(page.data.published.edges[0].node).toMatchObject({ id, hits: 41 });

    const again = await client.query({ query: gql(ITEM), variables: { code: newest } });
    expect(counter.sent()).toBe(2);
    expect(again.data.item).toMatchObject({ id, code: newest, hits: 41 });
  });
});

describe("urql's graphcache, default configuration", () => {
  it('keeps an item once, so a page read over the network updates the item query', async () => {
    const counter = countingFetch();
    const client = createClient({
      url: `${app.url}/graphql`,
      exchanges: [cacheExchange({}), fetchExchange],
      fetch: counter.fetch,
    });
    const first = await client.query(ITEM, { code: newest }).toPromise();
    expect(first.error).toBeUndefined();
    const { id } = first.data.item;

    await changeOnServer(newest, 42);
    const page = await client.query(PAGE, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(page.data.published.edges[0].node).toMatchObject({ id, hits: 42 });

    const again = await client.query(ITEM, { code: newest }).toPromise();
    expect(counter.sent()).toBe(2);
    expect(again.data.item).toMatchObject({ id, code: newest, hits: 42 });
  });
});
