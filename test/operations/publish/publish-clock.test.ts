import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperation } from '../../../src/operations/operation.js';
import { publishClock } from '../../../src/operations/publish/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
});
afterAll(() => app.close());

const publish = async (input: unknown) =>
  runOperation(publishClock, await testContext(app.services), input);

describe('publishClock', () => {
  it('gives a pronounceable code played at /clock~<code>, and the same code for the same melody', async () => {
    const first = await publish({ source: 'ceg dfa' });
    expect(first.code).toMatch(/^([bdfghjklmnprstvwz][aeiou1-689])+$/);
    expect(first).toEqual({
      code: first.code,
      cached: false,
      url: `https://art.example/clock~${first.code}`,
    });
    expect(await publish({ source: ' ceg dfa\n' })).toEqual({ ...first, cached: true });
  });

  it('prefers source over the legacy melody field, and accepts melody alone', async () => {
    const both = await publish({ source: 'abc', melody: 'xyz' });
    const legacy = await publish({ melody: 'g f e d' });
    expect(legacy.cached).toBe(false);
    expect(await app.db.clocks.findOne({ code: both.code })).toMatchObject({ source: 'abc' });
    expect(await app.db.clocks.findOne({ code: legacy.code })).toMatchObject({
      source: 'g f e d',
    });
  });

  it('accepts 10,000 characters and refuses one more with SOURCE_TOO_LONG', async () => {
    expect((await publish({ source: 'c'.repeat(10_000) })).cached).toBe(false);
    expect(await appErrorOf(publish({ source: 'c'.repeat(10_001) }))).toMatchObject({
      code: 'SOURCE_TOO_LONG',
    });
  });

  it.each([
    [{}, 'SOURCE_REQUIRED'],
    [{ melody: ' ' }, 'SOURCE_REQUIRED'],
    [{ melody: ['c'] }, 'SOURCE_NOT_STRING'],
    [{ source: 7, melody: 'c' }, 'SOURCE_NOT_STRING'],
  ])('refuses %j with %s', async (input, code) => {
    expect((await appErrorOf(publish(input))).code).toBe(code);
  });
});
