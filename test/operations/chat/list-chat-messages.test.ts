import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listChatMessages } from '../../../src/operations/chat/index.js';
import { runOperation } from '../../../src/operations/operation.js';
import {
  chronological,
  insertHandles,
  insertMessages,
  type MessageFixture,
  message,
  visible,
} from '../../chat/fixtures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

const ALICE = 'auth0|alice';
const BOB = 'auth0|bob';
const GHOST = 'auth0|ghost'; // an account without a handle

const messages: MessageFixture[] = [
  message('system', 1, 'Hello World', { user: ALICE, hearts: 3 }),
  message('system', 2, 'hello world', { user: BOB }),
  message('system', 3, 'a.b', { user: ALICE, hearts: 1 }),
  message('system', 4, 'axb', { user: BOB }),
  message('system', 5, 'ghostly', { user: GHOST, hearts: 2 }),
  message('system', 6, 'erased', { user: '' }),
  message('system', 7, 'nobody'),
  message('system', 7.1, '(paren)'),
  message('system', 7.2, 'star*'),
  message('system', 7.3, 'back\\slash'),
  message('system', 8, 'hello, deleted', { user: ALICE, deleted: true, hearts: 5 }),
  ...Array.from({ length: 60 }, (_, i) =>
    message('system', 10 + i, `filler ${i}`, { user: i % 2 ? ALICE : BOB, hearts: i % 3 }),
  ),
  ...Array.from({ length: 6 }, (_, i) =>
    message('clock', 1.5 + i, `clock hello ${i}`, { user: BOB, hearts: i + 1 }),
  ),
];
const ids = (list: MessageFixture[]) => list.map((m) => m._id.toHexString());

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await insertMessages(app.db, messages);
  await insertHandles(app.db, { [ALICE]: 'alice', [BOB]: 'bob' });
});
afterAll(() => app.close());

const list = async (input: Record<string, unknown> = {}) =>
  runOperation(listChatMessages, await testContext(app.services), input);

describe('listChatMessages', () => {
  it('reads the latest 50 of the system channel, oldest first, with count and nextBefore', async () => {
    const page = await list();
    const expected = chronological(visible(messages)).slice(-50);
    expect(page.instance).toBe('system');
    expect(page.count).toBe(50);
    expect(page.messages.map((m) => m.id)).toEqual(ids(expected));
    expect(page.nextBefore).toBe(expected[0]?.when.toISOString());
    expect('search' in page).toBe(false);
  });

  it('reads strictly older than before, and a page with nothing has nextBefore null', async () => {
    const firstPage = await list({ limit: 5 });
    const older = await list({ limit: 5, before: firstPage.nextBefore });
    const all = chronological(visible(messages));
    expect(older.messages.map((m) => m.id)).toEqual(ids(all.slice(-10, -5)));
    const none = await list({ before: '2026-01-01T00:00:00Z' });
    expect(none).toMatchObject({ count: 0, messages: [], nextBefore: null });
  });

  it('answers a search newest first, literally, case-insensitively, echoing it, never a deleted message', async () => {
    const page = await list({ search: ' HELLO ', instance: 'system' });
    expect(page.search).toBe('HELLO');
    expect(page.messages.map((m) => m.text)).toEqual(['hello world', 'Hello World']);
    expect((await list({ search: 'a.b' })).messages.map((m) => m.text)).toEqual(['a.b']);
    const both = await list({ instance: 'all', q: 'hello' });
    expect(both.count).toBe(2 + 6);
    const whens = both.messages.map((m) => Date.parse(m.when));
    expect(whens).toEqual([...whens].sort((a, b) => b - a));
  });

  it("counts each message's hearts of its own channel and names its sender", async () => {
    const page = await list({ instance: 'all', limit: 100 });
    const byId = new Map(messages.map((m) => [m._id.toHexString(), m]));
    for (const shown of page.messages) expect(shown.hearts).toBe(byId.get(shown.id)?.hearts);
    const from = Object.fromEntries(page.messages.map((m) => [m.text, m.from]));
    expect(from).toMatchObject({
      'Hello World': '@alice',
      'hello world': '@bob',
      ghostly: 'anon',
      erased: 'anon',
      nobody: 'anon',
      'clock hello 0': '@bob',
    });
  });

  it('filters by sender handle, with or without @; an unknown handle gives an empty page', async () => {
    const alice = await list({ from: '@alice', limit: 100 });
    expect(alice.count).toBeGreaterThan(0);
    expect(alice.messages.every((m) => m.from === '@alice')).toBe(true);
    expect((await list({ from: 'alice', limit: 100 })).messages).toEqual(alice.messages);
    expect((await list({ from: '@nobody-here' })).count).toBe(0);
  });

  it('keeps a page for 120 s under a key that includes from', async () => {
    const before = await list({ instance: 'clock' });
    await insertMessages(app.db, [message('clock', 100, 'late clock message', { user: BOB })]);
    expect(await list({ instance: 'clock' })).toEqual(before);
    const bob = await list({ instance: 'clock', from: 'bob' });
    expect(bob.messages.map((m) => m.text)).toContain('late clock message');
  });

  it.each([
    [{ instance: 'general' }, 'INSTANCE_INVALID'],
    [{ limit: 101 }, 'LIMIT_TOO_LARGE'],
    [{ limit: '0' }, 'LIMIT_INVALID'],
    [{ limit: 'ten' }, 'LIMIT_INVALID'],
    [{ before: 'yesterday' }, 'BEFORE_INVALID'],
    [{ search: 's'.repeat(201) }, 'SEARCH_TOO_LONG'],
    [{ from: '@a b' }, 'FROM_INVALID'],
  ])('refuses %j with %s (400)', async (input, code) => {
    expect(await appErrorOf(list(input))).toMatchObject({ code, status: 400 });
  });

  it.each([
    ['a.b', ['a.b']],
    ['(', ['(paren)']],
    ['*', ['star*']],
    ['\\', ['back\\slash']],
  ])('searches %s literally', async (term, texts) => {
    expect((await list({ search: term })).messages.map((m) => m.text)).toEqual(texts);
  });

  it('accepts a 200-character search', async () => {
    expect((await list({ search: 's'.repeat(200) })).count).toBe(0);
  });
});
