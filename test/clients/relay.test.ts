import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  createOperationDescriptor,
  Environment,
  fetchQuery,
  type GraphQLTaggedNode,
  getSelector,
  Network,
  RecordSource,
  Store,
} from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthor } from '../items/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, httpFetch } from '../support/http-client.js';

/**
 * Relay as its users run it: relay-compiler (its native binary, from the npm package) compiles
 * test/clients/relay/documents.ts against schema.graphql, and relay-runtime's default
 * environment runs the artifacts: nested fragments, a @refetchable fragment refetched through
 * node(id:), and @connection pages merged by its connection handler.
 */

const RELAY_DIR = new URL('./relay/', import.meta.url);
const GENERATED = new URL('./__generated__/', RELAY_DIR);

let app: TestApp;
let http: HttpClient;
let root = '';
const artifacts: Record<string, GraphQLTaggedNode> = {};

async function compileDocuments(): Promise<void> {
  await mkdir(GENERATED, { recursive: true });
  await promisify(execFile)('npx', ['relay-compiler'], { cwd: RELAY_DIR });
  for (const name of [
    'documentsHomeQuery',
    'documentsHomePaginationQuery',
    'documents_home',
    'documents_card',
    'documents_meta',
    'documents_who',
    'documentsItemQuery',
    'documentsItemRefetchQuery',
    'documents_item',
    'documents_remixes',
    'documentsRemixesPaginationQuery',
  ])
    artifacts[name] = (await import(new URL(`${name}.graphql.ts`, GENERATED).href)).default;
}

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url);
  await compileDocuments();
  const { auth } = await createAuthor(app, 'relayer');
  const publish = async (source: string, remixOf?: string) => {
    const answer = await http.post(
      '/api/store-kidlisp',
      { source, ...(remixOf ? { remixOf } : {}) },
      auth,
    );
    expect(answer.status, answer.text).toBe(201);
    return answer.json.code as string;
  };
  root = await publish('(wipe navy) ; relay root');
  for (let index = 0; index < 5; index++) await publish(`(wipe ${index}) ; relay remix`, root);
  for (let index = 0; index < 24; index++) await publish(`(wipe ${index}) ; relay work`);
}, 120_000);
afterAll(async () => {
  http?.close();
  await app?.close();
});

/** relay-runtime with its defaults; only the network says where the service is. */
function relayEnvironment(): Environment {
  return new Environment({
    network: Network.create(async (params, variables) => {
      const response = await httpFetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: params.text, variables }),
      });
      return response.json();
    }),
    store: new Store(new RecordSource()),
  });
}

const artifact = (name: string) => artifacts[name] as GraphQLTaggedNode;

/** A fragment's data as a component would read it from the store, by its parent's reference. */
function readFragment(environment: Environment, name: string, ref: unknown): any {
  return environment.lookup(getSelector(artifact(name) as never, ref as never) as never).data;
}

async function runQuery(environment: Environment, name: string, variables: object): Promise<any> {
  await fetchQuery(environment, artifact(name), variables).toPromise();
  const operation = createOperationDescriptor(artifact(name) as never, variables as never);
  return environment.lookup(operation.fragment).data;
}

describe('Relay', () => {
  it('reads the home page through three nested fragments, then pages it with its connection', async () => {
    const environment = relayEnvironment();
    const query = await runQuery(environment, 'documentsHomeQuery', {});
    const home = readFragment(environment, 'documents_home', query);
    expect(home.published.edges).toHaveLength(24);
    const cards = home.published.edges.map((edge: any) => {
      const meta = readFragment(
        environment,
        'documents_meta',
        readFragment(environment, 'documents_card', edge.node),
      );
      return { code: meta.code, author: readFragment(environment, 'documents_who', meta).author };
    });
    expect(cards.every((card: any) => card.author?.handle === '@relayer')).toBe(true);
    expect(new Set(cards.map((card: any) => card.code)).size).toBe(24);

    expect(home.published.pageInfo.hasNextPage).toBe(true);
    await fetchQuery(environment, artifact('documentsHomePaginationQuery'), {
      count: 24,
      cursor: home.published.pageInfo.endCursor,
    }).toPromise();
    const paged = readFragment(environment, 'documents_home', query);
    // 30 works: the second page's 6 joined the first page's 24 in the connection.
    expect(paged.published.edges).toHaveLength(30);
    expect(paged.published.pageInfo.hasNextPage).toBe(false);
  });

  it('refetches an item by its id through node(id:), and pages its remixes the same way', async () => {
    const environment = relayEnvironment();
    const query = await runQuery(environment, 'documentsItemQuery', { code: root });
    const item = readFragment(environment, 'documents_item', query.item);
    expect(item).toMatchObject({ code: root, address: root });
    expect(typeof item.id).toBe('string');

    // What changed on the server comes back through the refetch query into the same record.
    await app.db.kidlisp.updateOne({ code: root }, { $set: { hits: 99 } });
    await fetchQuery(environment, artifact('documentsItemRefetchQuery'), {
      id: item.id,
    }).toPromise();
    expect(readFragment(environment, 'documents_item', query.item).hits).toBe(99);

    const firstPage = readFragment(environment, 'documents_remixes', query.item);
    expect(firstPage.remixes.edges).toHaveLength(2);
    let page = firstPage;
    while (page.remixes.pageInfo.hasNextPage) {
      await fetchQuery(environment, artifact('documentsRemixesPaginationQuery'), {
        id: item.id,
        count: 2,
        cursor: page.remixes.pageInfo.endCursor,
      }).toPromise();
      page = readFragment(environment, 'documents_remixes', query.item);
    }
    const codes = page.remixes.edges.map((edge: any) => edge.node.code);
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
  });
});
