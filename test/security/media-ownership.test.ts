import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { storageKeyOf } from '../../src/domain/media.js';
import { graphql, postJson, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
let alice: { token: string; account: string };
let bob: { token: string; account: string };
/** Alice's published piece, as a storage key under her folder. */
let alicePieceKey: string;
let aliceFolder: string;

const bearer = (who?: { token: string }) =>
  who ? { authorization: `Bearer ${who.token}` } : ({} as Record<string, string>);

const track = (body: unknown, who?: { token: string }) =>
  postJson(`${app.url}/api/track-media`, body, bearer(who));

const trackViaGraphql = (slug: string, ext: string, who?: { token: string }) =>
  graphql(
    app.url,
    'mutation($slug: String!, $ext: MediaExt!) { trackMedia(slug: $slug, ext: $ext) { code cached } }',
    { slug, ext },
    bearer(who),
  );

beforeAll(async () => {
  app = await startTestApp();
  const made = async (handle: string) => {
    const { token, record } = await createApiToken(app.db, { handle });
    return { token, account: record.account };
  };
  alice = await made('alice');
  bob = await made('bob');
  const piece = await postJson(
    `${app.url}/api/store-piece`,
    { source: 'export function paint({ wipe }) { wipe(0); }', name: 'sunrise' },
    bearer(alice),
  );
  expect(piece.status).toBe(201);
  const record = await app.db.pieces.findOne({ code: piece.body?.code });
  alicePieceKey = storageKeyOf(String(record?.slug), 'mjs');
  aliceFolder = alicePieceKey.split('/')[0] as string;
  await app.services.storage.put(
    `${aliceFolder}/2026/08/03/sunset.png`,
    Buffer.from('png'),
    'image/png',
  );
  await app.services.storage.put('2026/08/03/guest.png', Buffer.from('png'), 'image/png');
});
afterAll(() => app.close());

describe("track-media: an account's folder is its own", () => {
  it("answers anyone registering an object in another account's folder as if nothing were there, and records nothing", async () => {
    const slug = `${aliceFolder}/2026/08/03/sunset.png`;
    const missing = `${aliceFolder}/2026/08/03/nothing-here.png`;
    const anonymous = await track({ slug, ext: 'png' });
    const asBob = await track({ slug, ext: 'png' }, bob);
    const notThere = await track({ slug: missing, ext: 'png' }, bob);
    for (const answer of [anonymous, asBob]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'MEDIA_NOT_FOUND' });
    }
    // "Not yours" and "not there" cannot be told apart.
    expect(notThere.status).toBe(404);
    const without = (body: Record<string, unknown> | undefined, slugShown: string) =>
      JSON.stringify(body).replaceAll(slugShown, '<slug>');
    expect(without(asBob.body, slug)).toBe(without(notThere.body, missing));
    expect(await app.db.paintings.countDocuments({ slug })).toBe(0);

    // Alice's own registration is then the first one, with her as its user.
    const own = await track({ slug, ext: 'png' }, alice);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ cached: false });
    expect(await app.db.paintings.findOne({ slug })).toMatchObject({ user: alice.account });
  });

  it("refuses Bob registering Alice's published piece as his own, on REST and GraphQL", async () => {
    const rest = await track({ slug: alicePieceKey, ext: 'mjs' }, bob);
    expect(rest.status).toBe(404);
    expect(rest.body).toMatchObject({ code: 'MEDIA_NOT_FOUND' });
    const viaGraphql = await trackViaGraphql(alicePieceKey, 'mjs', bob);
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('MEDIA_NOT_FOUND');
    // Only Alice's own store-piece record holds that key.
    expect(await app.db.pieces.find({ slug: alicePieceKey }).toArray()).toEqual([
      expect.objectContaining({ user: alice.account }),
    ]);
  });

  it('refuses on GraphQL too when anonymous, and lets the owner register there', async () => {
    const slug = `${aliceFolder}/2026/08/03/sunset.png`;
    const anonymous = await trackViaGraphql(slug, 'png');
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('MEDIA_NOT_FOUND');
    const own = await trackViaGraphql(slug, 'png', alice);
    expect(own.body.data?.trackMedia).toMatchObject({ cached: true });
  });

  it('lets anyone register the guest space, with or without a token', async () => {
    const anonymous = await track({ slug: '2026/08/03/guest.png', ext: 'png' });
    expect(anonymous.status).toBe(200);
    const asBob = await trackViaGraphql('2026/08/03/guest.png', 'png', bob);
    expect(asBob.body.data?.trackMedia).toEqual({ code: anonymous.body?.code, cached: true });
  });
});
