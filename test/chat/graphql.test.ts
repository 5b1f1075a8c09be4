import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestApp, type TestApp } from '../support/app.js';
import {
  type Channel,
  chronological,
  getJson,
  insertHandles,
  insertMessages,
  type MessageFixture,
  message,
  visible,
} from './fixtures.js';

const ALICE = 'auth0|alice';

// Many messages share each of a few timestamps, in both channels, so a page boundary falls inside a tie.
const messages: MessageFixture[] = [
  ...Array.from({ length: 23 }, (_, i) =>
    message('system', 10, `same second ${i}`, { user: i % 2 ? ALICE : '', hearts: i % 3 }),
  ),
  ...Array.from({ length: 9 }, (_, i) =>
    message('clock', 10, `clock same second ${i}`, { hearts: 1 }),
  ),
  ...Array.from({ length: 6 }, (_, i) =>
    message('system', 20 + (i % 2), `later ${i}`, { user: ALICE }),
  ),
  ...Array.from({ length: 5 }, (_, i) => message('clock', 5, `clock earlier ${i}`)),
  // More than 50 visible system messages in all (three to a second), so the default page size leaves some out.
  ...Array.from({ length: 30 }, (_, i) =>
    message('system', 30 + Math.floor(i / 3), `filler ${i}`, {
      user: i % 2 ? '' : ALICE,
      hearts: i % 2,
    }),
  ),
  message('system', 15, 'gone', { deleted: true }),
];
const byId = new Map(messages.map((m) => [m._id.toHexString(), m]));

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await insertMessages(app.db, messages);
  await insertHandles(app.db, { [ALICE]: 'alice' });
});
afterAll(() => app?.close());

const PAGE = `query ($instance: ChatInstance, $search: String, $from: String, $first: Int, $after: String, $last: Int, $before: String) {
  chatMessages(instance: $instance, search: $search, from: $from, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id from text when instance hearts } }
    pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
  }
}`;

async function page(variables: Record<string, unknown>) {
  const { status, body } = await graphql(app.url, PAGE, variables);
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  return body.data.chatMessages as {
    edges: {
      cursor: string;
      node: {
        id: string;
        from: string;
        text: string;
        when: string;
        instance: string;
        hearts: number;
      };
    }[];
    pageInfo: {
      hasPreviousPage: boolean;
      hasNextPage: boolean;
      startCursor: string | null;
      endCursor: string | null;
    };
  };
}

const expectedIds = (channels: Channel[]) =>
  chronological(visible(messages, channels)).map((m) => m._id.toHexString());

describe.each([
  ['system'],
  ['clock'],
  ['all'],
] as const)('chatMessages(instance: %s)', (instance) => {
  const channels: Channel[] = instance === 'all' ? ['system', 'clock'] : [instance];

  it('pages backwards with last/before through ties, visiting every message once', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    for (let guard = 0; guard < 40; guard++) {
      const connection = await page({ instance, last: 4, before });
      seen.unshift(...connection.edges.map((edge) => edge.node.id));
      if (!connection.pageInfo.hasPreviousPage) break;
      before = connection.pageInfo.startCursor;
    }
    expect(seen).toEqual(expectedIds(channels));
  });

  it('pages forwards with first/after through ties, visiting every message once', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 40; guard++) {
      const connection = await page({ instance, first: 3, after });
      seen.push(...connection.edges.map((edge) => edge.node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(expectedIds(channels));
  });

  it('returns every message, each with its channel’s hearts, its sender, instance and time', async () => {
    const connection = await page({ instance, last: 100 });
    expect(connection.edges.map((edge) => edge.node.id)).toEqual(expectedIds(channels));
    for (const { node } of connection.edges) {
      const fixture = byId.get(node.id);
      expect(node.hearts).toBe(fixture?.hearts);
      expect(node.from).toBe(fixture?.user === ALICE ? '@alice' : 'anon');
      expect(node.instance).toBe(fixture?.instance);
      expect(node.when).toBe(fixture?.when.toISOString());
    }
  });
});

describe('chatMessages', () => {
  it('defaults to the latest 50, oldest first, with cursors that round-trip', async () => {
    const ids = expectedIds(['system']);
    expect(ids.length).toBeGreaterThan(50);
    const connection = await page({});
    expect(connection.edges).toHaveLength(50);
    const latest = ids.slice(-50);
    expect(connection.edges.map((edge) => edge.node.id)).toEqual(latest);
    expect(connection.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const middle = connection.edges[10]!.cursor;
    const after = await page({ first: 2, after: middle });
    expect(after.edges.map((edge) => edge.node.id)).toEqual(latest.slice(11, 13));
  });

  it('reads the range strictly between after and before', async () => {
    const all = await page({ instance: 'all', last: 100 });
    const [after, before] = [all.edges[5]!.cursor, all.edges[30]!.cursor];
    const between = await page({ instance: 'all', first: 100, after, before });
    expect(between.edges.map((edge) => edge.node.id)).toEqual(
      all.edges.slice(6, 30).map((edge) => edge.node.id),
    );
  });

  it('agrees with REST on the same messages', async () => {
    const rest = await getJson(`${app.url}/api/chat-messages?instance=all&limit=20`);
    const connection = await page({ instance: 'all', last: 20 });
    expect(connection.edges.map((edge) => edge.node)).toEqual(rest.body.messages);
  });

  it('filters by search and sender, edges still oldest first', async () => {
    const connection = await page({ search: 'LATER', from: '@alice', last: 3 });
    expect(connection.edges.map((edge) => edge.node.text)).toEqual([
      'later 1',
      'later 3',
      'later 5',
    ]);
    expect((await page({ from: 'nobody' })).edges).toEqual([]);
  });

  it.each([
    [{ after: 'not-a-cursor' }, 'CURSOR_INVALID'],
    [{ last: 2, before: Buffer.from('chat:12:zz').toString('base64url') }, 'CURSOR_INVALID'],
    [{ first: 0 }, 'LIMIT_INVALID'],
    [{ last: 101 }, 'LIMIT_TOO_LARGE'],
    [{ first: 2, last: 2 }, 'LIMIT_INVALID'],
    [{ search: 'x'.repeat(201) }, 'SEARCH_TOO_LONG'],
    [{ from: '@' }, 'FROM_INVALID'],
  ])('refuses %j with %s', async (variables, code) => {
    const { body } = await graphql(app.url, PAGE, variables);
    expect(body.data?.chatMessages ?? null).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe(code);
    expect(body.errors?.[0]?.message).toMatch(/\w/);
  });
});
