import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../src/app-error.js';
import { createSearchSlots } from '../../src/operations/chat/search-slots.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

describe('search slots', () => {
  it('runs at most the limit at once, queues the next ones, and refuses those that waited too long', async () => {
    const slots = createSearchSlots(2, 100);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([0, 1]);
    gates[0]?.resolve();
    expect(await runs[0]).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([0, 1, 2]);
    // Both slots are taken now: one more waits 100 ms and is refused.
    const refused = await slots.run(async () => 'ran').catch((error: unknown) => error);
    expect(isAppError(refused) && refused.code).toBe('BUSY');
    expect(isAppError(refused) && refused.status).toBe(503);
    gates[1]?.resolve();
    gates[2]?.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(await slots.run(async () => 'free again')).toBe('free again');
  });
});

describe('uncached chat searches beyond CHAT_SEARCH_CONCURRENCY', () => {
  let app: TestApp;
  let client: HttpClient;
  let occupied: ReturnType<typeof deferred>;
  let holding: Promise<unknown>;
  beforeAll(async () => {
    app = await startTestApp({ CHAT_SEARCH_CONCURRENCY: '1' });
    client = createHttpClient(app.url, { timeoutMs: 20_000 });
    await app.db.chat.system.insertOne({
      text: 'hello sunset',
      when: new Date('2026-01-01T00:00:00Z'),
    } as never);
    // The only slot is taken by a search that does not end until the test lets it.
    occupied = deferred();
    holding = app.services.chatSearches.run(() => occupied.promise);
  });
  afterAll(async () => {
    occupied.resolve();
    await holding;
    client.close();
    await app.close();
  });

  it('answers 503 with Retry-After on REST once the short wait is over', async () => {
    const response = await client.get('/api/chat-messages?search=sunset');
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json).toMatchObject({ code: 'BUSY' });
  });

  it('answers BUSY on GraphQL', async () => {
    const response = await client.graphql(
      '{ chatMessages(search: "sunset") { edges { node { text } } } }',
    );
    expect(response.json.errors?.[0]?.extensions?.code).toBe('BUSY');
  });

  it('still serves pages without a search meanwhile, and searches again once the slot is free', async () => {
    expect((await client.get('/api/chat-messages')).status).toBe(200);
    occupied.resolve();
    await holding;
    const response = await client.get('/api/chat-messages?search=sunset');
    expect(response.status).toBe(200);
    expect(response.json.messages).toHaveLength(1);
  });
});
