import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topKidlisp } from '../../../src/operations/kidlisp/top-kidlisp.js';
import { runOperation } from '../../../src/operations/operation.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  await app.db.kidlisp.insertMany(
    [
      ['one', 1, 1],
      ['ten', 10, 2],
      ['five-old', 5, 3],
      ['five-new', 5, 4],
      ['none', undefined, 5],
      ...Array.from({ length: 25 }, (_, i) => [`many-${i}`, 2, 6 + i] as const),
    ].map(([code, hits, when]) => ({
      code: String(code),
      source: `(wipe) ; ${code}`,
      hash: `hash-${code}`,
      when: day(Number(when)),
      lastAccessed: day(Number(when)),
      ...(hits === undefined ? {} : { hits: Number(hits) }),
    })) as never,
  );
});
afterAll(() => app.close());

const top = async (input: unknown) =>
  runOperation(topKidlisp, await testContext(app.services), input);

describe('topKidlisp', () => {
  it('lists the 5 most hit, most first, ties newest first, with source, hits and URL', async () => {
    const examples = await top({});
    expect(examples.map((example) => example.code)).toEqual([
      'ten',
      'five-new',
      'five-old',
      'many-24',
      'many-23',
    ]);
    expect(examples[0]).toEqual({
      code: 'ten',
      source: '(wipe) ; ten',
      hits: 10,
      url: 'https://art.example/ten',
    });
  });

  it('gives up to 20, and counts a record without hits as 0', async () => {
    expect(await top({ limit: 20 })).toHaveLength(20);
    await app.db.kidlisp.deleteMany({ code: { $ne: 'none' } });
    expect(await top({ limit: 1 })).toEqual([
      { code: 'none', source: '(wipe) ; none', hits: 0, url: 'https://art.example/none' },
    ]);
  });

  it.each([
    [{ limit: 21 }, 'LIMIT_TOO_LARGE'],
    [{ limit: 0 }, 'LIMIT_INVALID'],
    [{ limit: 1.5 }, 'LIMIT_INVALID'],
    [{ limit: '5' }, 'LIMIT_INVALID'],
  ])('refuses %j with %s', async (input, code) => {
    expect((await appErrorOf(top(input))).code).toBe(code);
  });
});
