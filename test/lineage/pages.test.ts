import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMIXES_SHOWN } from '../../src/pages/lineage-section.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';
import { publisher } from './publish.js';

let app: TestApp;
let http: HttpClient;

beforeAll(async () => {
  app = await startTestApp();
  http = createHttpClient(app.url);
});
afterAll(async () => {
  http?.close();
  await app?.close();
});

const publish = publisher(() => http);

/** The remixes a page lists (their link targets), and its paging links. */
function listed(page: string) {
  const list = /<ul class="remixes">(.*?)<\/ul>/s.exec(page)?.[1] ?? '';
  return {
    remixes: [...list.matchAll(/<li><a href="\/([^"]+)"/g)].map((match) => match[1]),
    older: /<a href="\?remixes=([^"]+)">Older remixes<\/a>/.exec(page)?.[1],
    newest: page.includes('<a href="?">Newest remixes</a>'),
  };
}

describe('an item page with many remixes', () => {
  it(`lists the newest ${REMIXES_SHOWN}, and the older ones a link away`, async () => {
    const parent = await publish('/api/store-kidlisp', { source: '(wipe navy) ; many remixes' });
    const remixes: string[] = [];
    for (let n = 0; n < REMIXES_SHOWN + 2; n++)
      remixes.push(await publish('/api/store-kidlisp', { source: `(wipe ${n})`, remixOf: parent }));
    const newestFirst = remixes.reverse();

    const first = await http.get(`/${parent}`, { accept: 'text/html' });
    expect(first.status).toBe(200);
    const top = listed(first.text);
    expect(top.remixes).toEqual(newestFirst.slice(0, REMIXES_SHOWN));
    expect(top.newest).toBe(false);
    expect(top.older).toBeDefined();

    const next = await http.get(`/${parent}?remixes=${top.older}`, { accept: 'text/html' });
    expect(next.status).toBe(200);
    expect(listed(next.text)).toEqual({
      remixes: newestFirst.slice(REMIXES_SHOWN),
      older: undefined,
      newest: true,
    });

    const forged = await http.get(`/${parent}?remixes=nope`, { accept: 'text/html' });
    expect(forged.status).toBe(400);
  });

  it('says "remix of" on a melody, a piece and a painting, linking the parent\u2019s page', async () => {
    const parent = await publish('/api/store-clock', { source: 'c d e f g' });
    const melody = await publish('/api/store-clock', {
      source: 'g f e d c',
      remixOf: `clock~${parent}`,
    });
    const piece = await publish('/api/store-piece', {
      source: 'export function paint({ wipe }) { wipe(9); }',
      remixOf: `clock~${melody}`,
    });
    await app.services.storage.put(
      '2026/08/03/remix.png',
      Buffer.from('89504e47', 'hex'),
      'image/png',
    );
    const painting = (
      await http.post('/api/track-media', {
        slug: '2026/08/03/remix.png',
        ext: 'png',
        remixOf: piece,
      })
    ).json.code as string;
    for (const [path, parentPath] of [
      [`/clock~${melody}`, `/clock~${parent}`],
      [`/${piece}`, `/clock~${melody}`],
      [`/${painting}`, `/${piece}`],
    ]) {
      const page = await http.get(path as string, { accept: 'text/html' });
      expect(page.status, path).toBe(200);
      expect(page.text).toMatch(
        new RegExp(`<p class="remix-of">remix of <a rel="related" href="${parentPath}">`),
      );
    }
    // And the melody's parent lists it.
    const top = await http.get(`/clock~${parent}`, { accept: 'text/html' });
    expect(listed(top.text).remixes).toEqual([`clock~${melody}`]);
  });
});
