import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_KINDS } from '../../../src/operations/items/item.js';
import { kindsWithRawExt, readItemFile } from '../../../src/operations/items/item-files.js';
import { loadCode } from '../../../src/operations/items/loaders.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const when = new Date('2026-04-05T06:07:08.000Z');

describe('loadCode and the raw file', () => {
  it('finds each kind by code, and only among the kinds asked for', async () => {
    await app.db.kidlisp.insertOne({
      code: 'fpk',
      source: '(wipe red)',
      hash: 'fpk-hash',
      when,
      lastAccessed: when,
      hits: 1,
    });
    const ctx = await testContext(app.services);
    expect(await loadCode(ctx, 'fpk', SHARED_KINDS)).toMatchObject({
      kind: 'kidlisp',
      source: '(wipe red)',
    });
    expect(await loadCode(ctx, 'fpk', kindsWithRawExt('png'))).toBeNull();
    expect(await loadCode(ctx, 'fpk', kindsWithRawExt('lisp'))).toMatchObject({
      kind: 'kidlisp',
    });
    expect(await loadCode(ctx, 'no/such code', SHARED_KINDS)).toBeNull();
  });

  // Records store `slug` as the whole storage key; older store-piece records and the reference
  // deployment's records hold it without its extension, and still name the same file.
  it.each([
    ['a piece', 'pieces', { code: 'old-piece', slug: '2026/04/05/old-piece' }, 'mjs'],
    [
      'a piece with its key',
      'pieces',
      { code: 'new-piece', slug: '2026/04/05/new-piece.mjs' },
      'mjs',
    ],
    ['a Lua piece', 'pieces', { code: 'old-lua', slug: '2026/04/05/old-lua', ext: 'lua' }, 'lua'],
    ['a painting', 'paintings', { code: 'old-png', slug: '2026/04/05/old-png' }, 'png'],
    ['a tape', 'tapes', { code: 'old-zip', slug: '2026/04/05/old-zip', kind: 'zip' }, 'zip'],
  ] as const)('reads %s whatever form its slug was stored in', async (_label, collection, record, ext) => {
    const key = `2026/04/05/${record.code}.${ext}`;
    await app.services.storage.put(
      key,
      Buffer.from(`file ${record.code}`),
      'application/octet-stream',
    );
    await app.db[collection].insertOne({ ...record, when } as never);
    const ctx = await testContext(app.services);
    const item = await loadCode(ctx, record.code, SHARED_KINDS);
    expect(item).toMatchObject({ storageKey: key });
    if (!item) throw new Error(`not found: ${record.code}`);
    const file = await readItemFile(ctx, item);
    expect(file?.body.toString()).toBe(`file ${record.code}`);
  });
});

describe('one item, every face', () => {
  // The API and the pages read the same Item: the mediaUrl the API gives is the raw file the
  // pages serve, and the storage key the pages read by is never in an answer.
  it.each([
    ['a piece', 'pieces', { code: 'face-piece', slug: '2026/04/06/face-piece' }, 'mjs'],
    ['a Lua piece', 'pieces', { code: 'face-lua', slug: '2026/04/06/face-lua', ext: 'lua' }, 'lua'],
    ['a painting', 'paintings', { code: 'face-png', slug: '2026/04/06/face-png.png' }, 'png'],
    ['a tape', 'tapes', { code: 'face-mp4', slug: '2026/04/06/face-mp4', kind: 'mp4' }, 'mp4'],
  ] as const)('the API’s mediaUrl of %s is the file its page serves', async (_label, collection, record, ext) => {
    const key = `2026/04/06/${record.code}.${ext}`;
    await app.services.storage.put(key, Buffer.from(`bytes of ${record.code}`), 'text/plain');
    await app.db[collection].insertOne({ ...record, when } as never);
    const facts = await fetch(`${app.url}/api/items/${record.code}`);
    const text = await facts.text();
    expect(facts.status).toBe(200);
    expect(text).not.toContain('2026/04/06');
    const { mediaUrl, ext: factsExt } = JSON.parse(text) as { mediaUrl: string; ext: string };
    expect(factsExt).toBe(ext);
    const file = await fetch(mediaUrl);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(`bytes of ${record.code}`);
  });
});
