import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { collectionNames } from '../../src/db/collections.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

// A page of remixes whose parents were taken down names each parent as removed
// (docs/contract.md, Take-downs) with one read of the removals for the whole page.

let app: TestApp;
let http: HttpClient;
let commands: CommandLog;
const remixes: string[] = [];

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  http = createHttpClient(app.url);
  const { token } = await createApiToken(app.db, { handle: '@removed-parents' });
  const owner = { authorization: `Bearer ${token}` };
  for (let index = 0; index < 5; index++) {
    const parent = await http.post(
      '/api/store-kidlisp',
      { source: `(wipe ${index}) ; parent` },
      owner,
    );
    expect(parent.status, parent.text).toBe(201);
    const remix = await http.post('/api/store-kidlisp', {
      source: `(wipe ${index}) (ink 9) ; remix`,
      remixOf: parent.json.code,
    });
    expect(remix.status, remix.text).toBe(201);
    remixes.push(remix.json.code);
    const deleted = await http.graphql(
      `mutation { deleteWork(code: "${parent.json.code}") { deleted } }`,
      {},
      owner,
    );
    expect(deleted.json.data?.deleteWork, deleted.text).toEqual({ deleted: true });
  }
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  http?.close();
  await app?.close();
});

describe('remixes of removed works', () => {
  it('name each parent as removed, reading the removals once for the page', async () => {
    commands.clear();
    const answer = await http.graphql(
      'query ($codes: [String!]!) { items(codes: $codes) { code remixOf { code } remixOfRemoved } }',
      { codes: remixes },
    );
    expect(answer.json.errors).toBeUndefined();
    expect(answer.json.data.items).toEqual(
      remixes.map((code) => ({ code, remixOf: null, remixOfRemoved: true })),
    );
    const removalReads = commands
      .commands()
      .filter(({ command }) => command.find === collectionNames.removedWorks);
    expect(removalReads).toHaveLength(1);
  });
});
