import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessagesConnection } from '../../../src/operations/chat/index.js';
import { runOperation } from '../../../src/operations/operation.js';
import {
  chronological,
  insertMessages,
  type MessageFixture,
  message,
  visible,
} from '../../chat/fixtures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

// Groups of three messages share a timestamp, so paging must order by (when, _id).
const messages: MessageFixture[] = [
  ...Array.from({ length: 60 }, (_, i) =>
    message('system', Math.floor(i / 3), `tied ${i}`, i === 7 ? { deleted: true } : {}),
  ),
  message('clock', 1, 'clock one'),
];
const shown = chronological(visible(messages)).map((m) => m._id.toHexString());

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await insertMessages(app.db, messages);
});
afterAll(() => app.close());

const connection = async (input: Record<string, unknown> = {}) =>
  runOperation(chatMessagesConnection, await testContext(app.services), input);
const idsOf = (page: Awaited<ReturnType<typeof connection>>) =>
  page.edges.map((edge) => edge.node._id.toHexString());

describe('chatMessagesConnection', () => {
  it('defaults to the latest 50, oldest first, with a previous page', async () => {
    const page = await connection();
    expect(idsOf(page)).toEqual(shown.slice(-50));
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor);
  });

  it('pages backwards with last/before through ties, visiting every message once', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await connection({ last: 7, ...(before ? { before } : {}) });
      seen.unshift(...idsOf(page));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor ?? undefined;
    }
    expect(seen).toEqual(shown);
  });

  it('pages forwards with first/after through ties, visiting every message once', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await connection({ first: 8, ...(after ? { after } : {}) });
      seen.push(...idsOf(page));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor ?? undefined;
    }
    expect(seen).toEqual(shown);
  });

  it('reads the range strictly between after and before', async () => {
    const all = await connection({ first: 100 });
    const after = all.edges[10]?.cursor;
    const before = all.edges[15]?.cursor;
    const page = await connection({ after, before, first: 100 });
    expect(idsOf(page)).toEqual(shown.slice(11, 15));
  });

  it.each([
    [{ after: 'bogus' }, 'CURSOR_INVALID'],
    [{ before: 'bogus' }, 'CURSOR_INVALID'],
    [{ first: 101 }, 'LIMIT_TOO_LARGE'],
    [{ last: -1 }, 'LIMIT_INVALID'],
    [{ instance: 'general' }, 'INSTANCE_INVALID'],
  ])('refuses %j with %s', async (input, code) => {
    expect((await appErrorOf(connection(input))).code).toBe(code);
  });
});
