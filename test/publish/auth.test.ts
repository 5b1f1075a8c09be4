import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, revokeApiToken } from '../../src/auth/api-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.db.handles.insertOne({ _id: 'auth0|artist', handle: 'artist' });
});
afterAll(() => app.close());

describe('bearer tokens', () => {
  it('stores the account of a valid token as `user`', async () => {
    const { token } = await createApiToken(app.db, { handle: '@artist', account: 'auth0|artist' });
    const response = await postJson(
      `${app.url}/api/store-kidlisp`,
      { source: '(wipe teal) ; mine' },
      { authorization: `Bearer ${token}` },
    );
    expect(response.status).toBe(201);
    expect(await app.db.kidlisp.findOne({ code: response.body?.code })).toMatchObject({
      user: 'auth0|artist',
    });
    const piece = await postJson(
      `${app.url}/api/store-piece`,
      { source: 'export function sim() {}' },
      { authorization: `Bearer ${token}` },
    );
    const record = await app.db.pieces.findOne({ code: piece.body?.code });
    expect(record).toMatchObject({ user: 'auth0|artist', anonymous: false });
    expect(record?.slug.startsWith('auth0|artist/')).toBe(true);
  });

  it('answers an invalid, malformed or revoked token with 401 and writes nothing', async () => {
    const { token } = await createApiToken(app.db, { handle: 'artist', account: 'auth0|artist' });
    await revokeApiToken(app.db, token);
    const before = await app.db.kidlisp.countDocuments();
    for (const authorization of [
      `Bearer ${token}`,
      'Bearer pgw_nope',
      'Bearer eyJ.not.jwt',
      'Basic abc',
      'Bearer',
    ]) {
      const response = await postJson(
        `${app.url}/api/store-kidlisp`,
        { source: `(wipe ${authorization.length})` },
        { authorization },
      );
      expect(response.status).toBe(401);
      expect(response.body?.code).toBe('UNAUTHENTICATED');
    }
    const viaGraphql = await graphql(
      app.url,
      'mutation { publishKidlisp(source: "(wipe gold)") { code } }',
      {},
      { authorization: 'Bearer pgw_nope' },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await app.db.kidlisp.countDocuments()).toBe(before);
  });

  it('never stores a token in clear', async () => {
    const { token } = await createApiToken(app.db, { handle: 'artist', account: 'auth0|artist' });
    const stored = JSON.stringify(await app.db.apiTokens.find().toArray());
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(12));
  });
});
