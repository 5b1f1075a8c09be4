import { afterAll, beforeAll } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { thumbnailsStored } from '../support/thumbnails.js';

/** A distinct client: an address as a trusted proxy reports it (start the app with TRUST_PROXY: 'loopback'). */
export const fromAddress = (n: number) => ({ 'x-forwarded-for': `10.9.${n >> 8}.${n & 255}` });

/** Publishes through REST and answers the code, failing loudly on anything but 200/201. */
export async function publish(
  http: HttpClient,
  path: '/api/store-kidlisp' | '/api/store-clock' | '/api/store-piece',
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await http.post(path, body, headers);
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${response.text}`);
  return response.json.code as string;
}

export interface Seeded {
  kidlisp: string;
  clock: string;
  piece: string;
  painting: string;
  tape: string;
  /** A bearer token of the account with the handle `@maker`. */
  makerToken: string;
  makerAccount: string;
}

/** An account holding `@handle`, and a bearer token of it. */
export async function createAuthor(app: TestApp, handle: string) {
  const { token, record } = await createApiToken(app.db, { handle: `@${handle}` });
  await app.db.handles.updateOne({ _id: record.account }, { $set: { handle } }, { upsert: true });
  return { token, account: record.account, auth: { authorization: `Bearer ${token}` } };
}

/** One item of every kind; the KidLisp, clock and piece published by `@maker`. */
export async function seedEveryKind(app: TestApp, http: HttpClient): Promise<Seeded> {
  const { token, account, auth } = await createAuthor(app, 'maker');
  const kidlisp = await publish(
    http,
    '/api/store-kidlisp',
    { source: '(wipe navy) ; seeded' },
    auth,
  );
  const clock = await publish(http, '/api/store-clock', { source: 'c d e f g' }, auth);
  const piece = await publish(
    http,
    '/api/store-piece',
    { source: 'export function paint({ wipe }) { wipe(9); }', name: 'Seeded Piece' },
    auth,
  );
  await app.services.storage.put(
    '2026/08/03/seed.png',
    Buffer.from('89504e47', 'hex'),
    'image/png',
  );
  await app.services.storage.put('2026/08/03/seed.mp4', Buffer.from('mp4'), 'video/mp4');
  const painting = (
    await http.post('/api/track-media', { slug: '2026/08/03/seed.png', ext: 'png' })
  ).json.code as string;
  const tape = (
    await http.post('/api/track-media', {
      slug: '2026/08/03/seed.mp4',
      ext: 'mp4',
      metadata: { totalDuration: 12.5 },
    })
  ).json.code as string;
  // Storing the KidLisp thumbnail marks the works changed (new ETags for the listings): settle it
  // before the tests read.
  await thumbnailsStored(app, [kidlisp]);
  return { kidlisp, clock, piece, painting, tape, makerToken: token, makerAccount: account };
}

export interface SeededApp {
  app: TestApp;
  http: HttpClient;
  seeded: Seeded;
}

/** A test app holding one item of every kind, started before a file's tests and closed after them. */
export function useSeededApp(env: Record<string, string> = {}): SeededApp {
  const seededApp = {} as SeededApp;
  beforeAll(async () => {
    seededApp.app = await startTestApp(env);
    seededApp.http = createHttpClient(seededApp.app.url);
    seededApp.seeded = await seedEveryKind(seededApp.app, seededApp.http);
  });
  afterAll(async () => {
    seededApp.http?.close();
    await seededApp.app?.close();
  });
  return seededApp;
}
