import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../src/operations/chat/read-window.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { getJson } from '../support/http-client.js';
import { insertMessages, type MessageFixture, message } from './fixtures.js';

// On the embedded default (no MONGODB_URI) the service creates trigram indexes on the chat's
// message text and the published works' text; chat search answers as before, through them.
// Against any other server (here, the test's MONGODB_URI) it creates none.
const words = ['Zebra', 'crossing', '日本語', 'emoji 😀', 'ſtraße', 'plain'];
const messages: MessageFixture[] = Array.from({ length: 600 }, (_, i) =>
  message(i % 5 === 0 ? 'clock' : 'system', i, `${words[i % words.length]} number ${i}`, {
    ...(i % 50 === 3 ? { deleted: true as const } : {}),
  }),
);

let embedded: TestApp;
let external: TestApp;
beforeAll(async () => {
  [embedded, external] = await Promise.all([startTestApp({ MONGODB_URI: '' }), startTestApp()]);
  await Promise.all([insertMessages(embedded.db, messages), insertMessages(external.db, messages)]);
});
afterAll(async () => {
  await Promise.all([embedded?.close(), external?.close()]);
});

const trigramIndexes = async (app: TestApp) => {
  const names: string[] = [];
  for (const collection of ['chat-system', 'chat-clock', 'kidlisp', 'clocks', 'pieces', 'tapes'])
    for (const index of await app.db.db.collection(collection).listIndexes().toArray())
      if (Object.values(index.key).includes('trigram')) names.push(`${collection}.${index.name}`);
  return names.sort();
};

describe('chat search on the embedded default', () => {
  it('has trigram indexes there, and none on another server', async () => {
    expect(await trigramIndexes(embedded)).toEqual([
      'chat-clock.chat_text_trigram',
      'chat-system.chat_text_trigram',
      'clocks.clock_source_trigram',
      'kidlisp.kidlisp_source_trigram',
      'pieces.pieces_name_trigram',
      'pieces.pieces_slug_trigram',
      'pieces.pieces_source_trigram',
      'tapes.tapes_slug_trigram',
    ]);
    expect(await trigramIndexes(external)).toEqual([]);
  });

  it('answers what the same search answers without the index, through the index', async () => {
    let found = 0;
    for (const term of [
      'ZEBRA CROSS',
      'zebra',
      '本語',
      'emoji 😀 number 1',
      'STRASSE',
      'ſtra',
      'number 59',
    ]) {
      for (const instance of ['system', 'all']) {
        const query = `?search=${encodeURIComponent(term)}&instance=${instance}&limit=40`;
        const [indexed, scanned] = await Promise.all([
          getJson(`${embedded.url}/api/chat-messages${query}`),
          getJson(`${external.url}/api/chat-messages${query}`),
        ]);
        expect(indexed.status).toBe(200);
        const texts = (body: Document) =>
          body.messages.map((m: Document) => `${m.instance} ${m.when} ${m.text}`);
        expect([term, texts(indexed.body)]).toEqual([term, texts(scanned.body)]);
        expect(indexed.body.count).toBe(scanned.body.count);
        found += indexed.body.count;
      }
    }
    expect(found).toBeGreaterThan(100);
    const filter = {
      deleted: { $ne: true },
      text: { $regex: escapeRegExp('number 59'), $options: 'i' },
    };
    const plan = await embedded.db.chat.system
      .find(filter, { sort: { when: -1, _id: -1 }, limit: 40 })
      .explain('executionStats');
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('chat_text_trigram');
    expect(plan.executionStats.totalDocsExamined).toBeLessThan(20);
  });
});
