import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import {
  getJson,
  insertHandles,
  insertMessages,
  type MessageFixture,
  message,
  T0,
} from './fixtures.js';

const users = ['auth0|alice', 'auth0|bob', 'auth0|carol', 'auth0|ghost', ''];
const messages: MessageFixture[] = ['system', 'clock'].flatMap((instance) =>
  Array.from({ length: 150 }, (_, i) =>
    message(
      instance as 'system' | 'clock',
      i,
      `${instance} note ${i} ${i % 5 ? 'plain' : 'hello'}`,
      { user: users[i % users.length], hearts: i % 3 },
    ),
  ),
);

let app: TestApp;
let commands: CommandLog;
beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  await insertMessages(app.db, messages);
  await insertHandles(app.db, {
    'auth0|alice': 'alice',
    'auth0|bob': 'bob',
    'auth0|carol': 'carol',
  });
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
    [1, 50, 100].flatMap((limit) =>
      ['', '&search=hello', '&from=alice', '&from=@bob&q=note'].map(
        (extra) => `?instance=${instance}&limit=${limit}${extra}`,
      ),
    ),
  );

  it.each(cases)('%s sends at most three', async (query) => {
    const { body, names } = await commandsFor(query);
    expect(body.count).toBeGreaterThan(0);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(3);
  });

  it('a GraphQL page of 100 from both channels sends at most three', async () => {
    commands.clear();
    const { body } = await graphql(
      app.url,
      '{ chatMessages(instance: all, last: 100) { edges { node { id from hearts } } } }',
    );
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

  it('keys its entries by every parameter: each variant reaches the database and gets its own body', async () => {
    const at = (second: number) => encodeURIComponent(new Date(T0 + second * 1000).toISOString());
    const chatReads = () =>
      commands
        .commands()
        .filter(({ command }) =>
          /^chat-(system|clock)$/.test(String(command.find ?? command.aggregate ?? '')),
        );
    const base = `instance=system&limit=5&search=hello&before=${at(100)}`;
    const variants = [
      base,
      `instance=system&limit=5&search=HELLO&before=${at(100)}`, // search case
      `instance=system&limit=6&search=hello&before=${at(100)}`, // limit
      `instance=clock&limit=5&search=hello&before=${at(100)}`, // instance
      `instance=all&limit=5&search=hello&before=${at(100)}`,
      `instance=system&limit=5&search=hello&before=${at(90)}`, // before
      `instance=system&limit=5&before=${at(100)}&from=bob`, // from
      `instance=system&limit=5&before=${at(100)}`, // no search
    ];
    const bodies: string[] = [];
    for (const query of variants) {
      const { body } = await commandsFor(`?${query}`);
      expect(chatReads(), query).toHaveLength(1);
      expect(body.count, query).toBeGreaterThan(0);
      bodies.push(JSON.stringify(body));
    }
    expect(new Set(bodies).size).toBe(variants.length);

    const parsed = bodies.map((body) => JSON.parse(body));
    expect(parsed[0]).toMatchObject({ instance: 'system', search: 'hello', count: 5 });
    expect(parsed[0].messages.map((m: { text: string }) => m.text)).toEqual(
      [95, 90, 85, 80, 75].map((i) => `system note ${i} hello`),
    );
    expect(parsed[1]).toEqual({ ...parsed[0], search: 'HELLO' });
    expect(parsed[2]).toMatchObject({ instance: 'system', search: 'hello', count: 6 });
    expect(parsed[3].messages.every((m: { instance: string }) => m.instance === 'clock')).toBe(
      true,
    );
    expect(parsed[5].messages.map((m: { text: string }) => m.text)).toEqual(
      [85, 80, 75, 70, 65].map((i) => `system note ${i} hello`),
    );
    expect(parsed[6].messages.map((m: { from: string }) => m.from)).toEqual(Array(5).fill('@bob'));
    expect('search' in parsed[7]).toBe(false);

    // Each variant is now cached on its own: a repeat reads nothing and answers the same body.
    for (const [i, query] of variants.entries()) {
      const again = await commandsFor(`?${query}`);
      expect(again.names, query).toEqual([]);
      expect(JSON.stringify(again.body), query).toBe(bodies[i]);
    }
    // Spellings of the same parameters share one entry.
    const same = await commandsFor(`?from=%40bob&limit=5&before=${at(100)}`);
    expect(same.names).toEqual([]);
    expect(JSON.stringify(same.body)).toBe(bodies[6]);
    const dateOnly = await commandsFor('?limit=3&before=2026-03-02');
    expect(chatReads()).toHaveLength(1);
    const fullTime = await commandsFor(
      `?limit=3&before=${encodeURIComponent('2026-03-02T00:00:00.000Z')}`,
    );
    expect(fullTime.names).toEqual([]);
    expect(fullTime.body).toEqual(dateOnly.body);
  });

  it('never answers one sender from another sender’s entry', async () => {
    const alice = await commandsFor('?limit=5&from=alice');
    const bob = await commandsFor('?limit=5&from=bob');
    const anyone = await commandsFor('?limit=5');
    expect(alice.names.length).toBeGreaterThan(0);
    expect(bob.names.length).toBeGreaterThan(0);
    expect(anyone.names.length).toBeGreaterThan(0);
    expect(alice.body.messages).toHaveLength(5);
    expect(bob.body.messages).toHaveLength(5);
    expect(anyone.body.messages).toHaveLength(5);
    expect(alice.body.messages.map((m: { from: string }) => m.from)).toEqual(
      Array(5).fill('@alice'),
    );
    expect(bob.body.messages.map((m: { from: string }) => m.from)).toEqual(Array(5).fill('@bob'));
    expect(new Set(anyone.body.messages.map((m: { from: string }) => m.from)).size).toBeGreaterThan(
      1,
    );
  });

  it('shares one database read among concurrent misses of one key', async () => {
    commands.clear();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        getJson(`${app.url}/api/chat-messages?instance=clock&limit=40`),
      ),
    );
    const names = commands.names();
    // This key was never read before: the database must be asked, once.
    expect(names.length, names.join(', ')).toBeGreaterThan(0);
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(3);
    expect(
      commands
        .commands()
        .filter(
          ({ command }) => command.find === 'chat-clock' || command.aggregate === 'chat-clock',
        ),
    ).toHaveLength(1);
    expect(responses[0]?.status).toBe(200);
    expect(responses[0]?.body.count).toBe(40);
    for (const response of responses) expect(response.body).toEqual(responses[0]?.body);
  });
});
