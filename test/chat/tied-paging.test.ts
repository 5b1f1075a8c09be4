import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { getJson } from '../support/http-client.js';
import { chronological, insertMessages, type MessageFixture, message } from './fixtures.js';

/**
 * 250 messages over both channels sharing only 84 timestamps (groups of 1 to over 20), read by
 * following `nextBefore` over REST: every message exactly once, in the spec's order, whatever
 * the limit, though `before` is strict and many groups straddle a page boundary.
 */

const MESSAGES = 250;
const TIMESTAMPS = 84;
let app: TestApp;
let messages: MessageFixture[];

/** A small deterministic generator, so a failure can be replayed. */
function* randomNumbers(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    yield state / 2 ** 31;
  }
}

beforeAll(async () => {
  app = await startTestApp();
  const random = randomNumbers(13);
  messages = Array.from({ length: MESSAGES }, (_, index) => {
    // Every timestamp once, then the rest skewed towards the low seconds: groups of very unequal size.
    const second =
      index < TIMESTAMPS ? index : Math.floor(TIMESTAMPS * (random.next().value as number) ** 2);
    const channel = (random.next().value as number) < 0.7 ? 'system' : 'clock';
    return message(channel, second, `message ${index}`);
  });
  expect(new Set(messages.map((m) => m.when.getTime())).size).toBe(TIMESTAMPS);
  await insertMessages(app.db, messages);
});

afterAll(async () => {
  await app?.close();
});

interface Page {
  count: number;
  messages: { id: string; when: string }[];
  nextBefore: string | null;
}

async function allPages(query: string): Promise<Page[]> {
  const pages: Page[] = [];
  let before: string | null = null;
  do {
    const url: string = `${app.url}/api/chat-messages?instance=all&${query}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
    const { status, body } = await getJson(url);
    expect(status).toBe(200);
    pages.push(body as Page);
    before = (body as Page).nextBefore;
    expect(pages.length).toBeLessThanOrEqual(MESSAGES + 1);
  } while (before !== null);
  return pages;
}

function expectTiedGroupsWhole(pages: Page[], limit: number) {
  for (const page of pages) {
    // More than `limit` only when the whole page is one group of messages of one time.
    if (page.count > limit) expect(new Set(page.messages.map((m) => m.when)).size).toBe(1);
  }
  const pageOf = new Map<string, number>();
  pages.forEach((page, index) => {
    for (const m of page.messages) {
      const seen = pageOf.get(m.when);
      expect(seen === undefined || seen === index, `${m.when} split across pages`).toBe(true);
      pageOf.set(m.when, index);
    }
  });
}

describe.each([1, 7, 20, 100])('following nextBefore with limit=%i', (limit) => {
  it('returns every message exactly once, oldest first overall', async () => {
    const pages = await allPages(`limit=${limit}`);
    const ids = [...pages].reverse().flatMap((page) => page.messages.map((m) => m.id));
    expect(ids).toHaveLength(MESSAGES);
    expect(new Set(ids).size).toBe(MESSAGES);
    expect(ids).toEqual(chronological(messages).map((m) => m._id.toHexString()));
    expectTiedGroupsWhole(pages, limit);
  });

  it('with a search term, every match once, newest first overall', async () => {
    const pages = await allPages(`limit=${limit}&search=message`);
    const ids = pages.flatMap((page) => page.messages.map((m) => m.id));
    expect(ids).toEqual(
      chronological(messages)
        .reverse()
        .map((m) => m._id.toHexString()),
    );
    expectTiedGroupsWhole(pages, limit);
  });
});
