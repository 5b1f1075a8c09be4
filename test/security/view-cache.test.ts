import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { thumbnailsStored } from '../support/thumbnails.js';

let app: TestApp;
let client: HttpClient;
let commands: CommandLog;
const codes: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  client = createHttpClient(app.url);
  const publish = async (path: string, body: unknown) =>
    (await client.post(path, body)).json.code as string;
  // A large program: its page is big and its validation is the expensive part of a view.
  codes.kidlisp = await publish('/api/store-kidlisp', {
    source: Array.from(
      { length: 1_200 },
      (_, i) => `(ink ${i % 255} 0 0) (line 0 ${i} w ${i})`,
    ).join('\n'),
  });
  codes.piece = await publish('/api/store-piece', {
    source: 'export function paint({ wipe }) { wipe(9); }',
    name: 'cached piece',
  });
  codes.clock = await publish('/api/store-clock', { source: 'c d e f g' });
  await app.services.storage.put('2026/08/03/view.png', Buffer.from('png bytes'), 'image/png');
  codes.painting = await publish('/api/track-media', { slug: '2026/08/03/view.png', ext: 'png' });
  await thumbnailsStored(app, [codes.kidlisp]);
  commands = recordCommands(app.db.client);
});
afterAll(async () => {
  commands.stop();
  client.close();
  await app.close();
});

const viewPaths = () => [
  `/$${codes.kidlisp}`,
  `/${codes.kidlisp}`,
  `/${codes.kidlisp}.lisp`,
  `/${codes.piece}`,
  `/${codes.piece}.mjs`,
  `/clock~${codes.clock}`,
  `/${codes.painting}`,
];

describe('viewer pages and raw files', () => {
  it('carry a strong ETag and answer 304 to a client that has them', async () => {
    for (const path of viewPaths()) {
      const first = await client.get(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag, path).toMatch(/^"[^"]+"$/);
      const again = await client.get(path, { 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      const changed = await client.get(path, { 'if-none-match': '"something-else"' });
      expect(changed.status, path).toBe(200);
      expect(changed.text, path).toBe(first.text);
    }
  });

  it('are answered again without a database command, with the same bytes and headers', async () => {
    const firsts = new Map<string, Awaited<ReturnType<HttpClient['get']>>>();
    for (const path of viewPaths()) firsts.set(path, await client.get(path));
    commands.clear();
    for (let round = 0; round < 3; round++) {
      for (const path of viewPaths()) {
        const again = await client.get(path);
        const first = firsts.get(path);
        expect(again.status).toBe(200);
        expect(again.text).toBe(first?.text);
        for (const header of [
          'content-type',
          'content-security-policy',
          'etag',
          'x-content-type-options',
          'x-frame-options',
        ])
          expect(again.headers[header], `${path} ${header}`).toBe(first?.headers[header]);
      }
    }
    expect(commands.names()).toEqual([]);
  });

  it('give a raw painting (bytes from storage) an ETag and 304 as well', async () => {
    const first = await client.get(`/${codes.painting}.png`);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBeTruthy();
    const again = await client.get(`/${codes.painting}.png`, {
      'if-none-match': first.headers.etag as string,
    });
    expect(again.status).toBe(304);
  });

  it('still answer 404 for codes that do not exist, and HEAD without a body', async () => {
    expect((await client.get('/$nothing-here')).status).toBe(404);
    const head = await client.send(`/$${codes.kidlisp}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});
