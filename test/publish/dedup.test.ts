import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example', TRUST_PROXY: 'loopback' });
});
afterAll(() => app.close());

describe('deduplication', () => {
  it('gives the same code for the same trimmed source, cached, with one document; hits move once per client', async () => {
    const first = await postJson(`${app.url}/api/store-kidlisp`, {
      source: '(wipe navy)\n(ink red)',
    });
    const again = await postJson(`${app.url}/api/store-kidlisp`, {
      source: '  (wipe navy)\n(ink red)\n\n',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      cached: false,
      url: `https://art.example/${first.body?.code}`,
    });
    expect(first.body?.code).toMatch(/^[a-km-np-z2-9]{3,}$/);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, cached: true });
    const docs = await app.db.kidlisp.find({ code: first.body?.code }).toArray();
    expect(docs).toHaveLength(1);
    // The same client publishing again is not a new hit (docs/contract.md, popularity)...
    expect(docs[0]).toMatchObject({ source: '(wipe navy)\n(ink red)', hits: 1 });
    // ...another client publishing the same source is.
    const other = await postJson(
      `${app.url}/api/store-kidlisp`,
      { source: '(wipe navy)\n(ink red)' },
      { 'x-forwarded-for': '10.1.2.3' },
    );
    expect(other.body).toEqual({ ...first.body, cached: true });
    expect(await app.db.kidlisp.findOne({ code: first.body?.code })).toMatchObject({ hits: 2 });
  });

  it.each([
    ['/api/store-kidlisp', () => ({ source: `(wipe ${Math.random()})` }), 'kidlisp'],
    ['/api/store-clock', () => ({ source: `c d e ${Math.random()}` }), 'clocks'],
    [
      '/api/store-piece',
      () => ({ source: `export function paint() {} // ${Math.random()}`, name: 'Race Piece' }),
      'pieces',
    ],
  ] as const)('%s: 50 concurrent identical publishes give one document and one code', async (path, makeBody, collection) => {
    const body = makeBody();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postJson(app.url + path, body)),
    );
    const codes = new Set(answers.map((answer) => answer.body?.code));
    expect(codes.size).toBe(1);
    expect(answers.filter((answer) => answer.body?.cached === false)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(49);
    const [code] = codes;
    expect(await app.db[collection].countDocuments({ code })).toBe(1);
    expect(await app.db[collection].countDocuments({ source: body.source.trim() })).toBe(1);
  });

  it('never leaves a claimed code without its record after concurrent identical publishes', async () => {
    const body = { source: `(ink ${Math.random()})` };
    await Promise.all(
      Array.from({ length: 20 }, () => postJson(`${app.url}/api/store-kidlisp`, body)),
    );
    const claimed = await app.db.codes
      .find({ type: 'kidlisp' })
      .map((record) => record._id)
      .toArray();
    const stored = await app.db.kidlisp.distinct('code');
    expect(claimed.sort()).toEqual(stored.sort());
  });

  it('keeps KidLisp, piece and media codes in one namespace', async () => {
    const codes = new Set<string>();
    const storage = app.service.services.storage;
    for (let i = 0; i < 30; i++) {
      const slug = `2026/06/07/namespace-${i}.png`;
      await storage.put(slug, Buffer.from(`png ${i}`), 'image/png');
      const kidlisp = await postJson(`${app.url}/api/store-kidlisp`, { source: `(box ${i})` });
      const piece = await postJson(`${app.url}/api/store-piece`, {
        source: `export const boot = () => ${i};`,
      });
      const media = await postJson(`${app.url}/api/track-media`, { slug, ext: 'png' });
      expect(
        [kidlisp.status, piece.status, media.status],
        JSON.stringify([kidlisp.body, piece.body, media.body]),
      ).toEqual([201, 201, 200]);
      expect(media.body).toMatchObject({ slug, cached: false });
      for (const answer of [kidlisp, piece, media]) {
        expect(typeof answer.body?.code).toBe('string');
        codes.add(answer.body?.code);
      }
    }
    expect(codes.size).toBe(90);
  });
});
