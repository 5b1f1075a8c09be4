import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestApp, type TestApp } from '../support/app.js';
import { recordCommands, type CommandLog } from '../support/commands.js';
import { getJson, insertHandles, insertMessages, message, type MessageFixture } from './fixtures.js';

const users = ['auth0|alice', 'auth0|bob', 'auth0|carol', 'auth0|ghost', ''];
const messages: MessageFixture[] = ['system', 'clock'].flatMap((instance) =>
  Array.from({ length: 150 }, (_, i) =>
    message(instance as 'system' | 'clock', i, `${instance} note ${i} ${i % 5 ? 'plain' : 'hello'}`, { user: users[i % users.length], hearts: i % 3 }),
  ),
);

let app: TestApp;
let commands: CommandLog;
beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  await insertMessages(app.db, messages);
  await insertHandles(app.db, { 'auth0|alice': 'alice', 'auth0|bob': 'bob', 'auth0|carol': 'carol' });
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands?.stop();
  await app?.close();
});

async function commandsFor(query: string) {
  commands.clear();
  const response = await getJson(`${app.url}/api/chat-messages${query}`);
  expect(response.status).toBe(200);
  return { body: response.body, names: commands.names() };
}

describe('database commands per page', () => {
  const cases = ['system', 'clock', 'all'].flatMap((instance) =>
    [1, 50, 100].flatMap((limit) => ['', '&search=hello', '&from=alice', '&from=@bob&q=note'].map((extra) => `?instance=${instance}&limit=${limit}${extra}`)),
  );

  it.each(cases)('%s sends at most three', async (query) => {
    const { body, names } = await commandsFor(query);
    expect(body.count).toBeGreaterThan(0);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(3);
  });

  it('a GraphQL page of 100 from both channels sends at most three', async () => {
    commands.clear();
    const { body } = await graphql(app.url, '{ chatMessages(instance: all, last: 100) { edges { node { id from hearts } } } }');
    expect(body.data.chatMessages.edges).toHaveLength(100);
    expect(commands.names()).toHaveLength(3);
  });
});

describe('the two-minute cache', () => {
  it('answers a repeated request without the database', async () => {
    const first = await commandsFor('?instance=all&limit=30&search=note');
    expect(first.names.length).toBeGreaterThan(0);
    const again = await commandsFor('?instance=all&limit=30&search=note');
    expect(again.names).toEqual([]);
    expect(again.body).toEqual(first.body);
    // A conditional request is not replayed before express: the operation's cache answers it.
    commands.clear();
    const response = await fetch(`${app.url}/api/chat-messages?instance=all&limit=30&search=note`, {
      headers: { 'if-modified-since': new Date().toUTCString() },
    });
    expect(await response.json()).toEqual(first.body);
    expect(commands.names()).toEqual([]);
  });

  it('never answers one sender from another sender’s entry', async () => {
    const alice = await commandsFor('?limit=5&from=alice');
    const bob = await commandsFor('?limit=5&from=bob');
    const anyone = await commandsFor('?limit=5');
    expect(bob.names.length).toBeGreaterThan(0);
    expect(anyone.names.length).toBeGreaterThan(0);
    expect(alice.body.messages.every((m: { from: string }) => m.from === '@alice')).toBe(true);
    expect(bob.body.messages.every((m: { from: string }) => m.from === '@bob')).toBe(true);
    expect(new Set(anyone.body.messages.map((m: { from: string }) => m.from)).size).toBeGreaterThan(1);
  });

  it('shares one database read among concurrent misses of one key', async () => {
    commands.clear();
    const responses = await Promise.all(Array.from({ length: 8 }, () => getJson(`${app.url}/api/chat-messages?instance=clock&limit=40`)));
    expect(commands.names().length).toBeLessThanOrEqual(3);
    for (const response of responses) expect(response.body).toEqual(responses[0]?.body);
  });
});
