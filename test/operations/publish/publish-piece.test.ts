import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperation } from '../../../src/operations/operation.js';
import { publishPiece } from '../../../src/operations/publish/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { appErrorOf, testContext } from '../../support/context.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
});
afterAll(() => app.close());

const publish = async (source: unknown, name?: unknown) =>
  runOperation(
    publishPiece,
    await testContext(app.services),
    name === undefined ? { source } : { source, name },
  );

describe('publishPiece', () => {
  it.each([
    ['export async function paint', 'export async function paint({ wipe }) { wipe(0); }'],
    ['export const boot = ...', 'export const boot = () => {};'],
    ['export { act }', 'function act() {}\nexport { act };'],
    ['export default', 'export default function () {}'],
    ['export { x as sim }', 'const x = () => {};\nexport { x as sim };'],
  ])('accepts %s', async (_label, source) => {
    const result = await publish(source);
    expect(result).toEqual({
      code: result.code,
      cached: false,
      url: `https://art.example/${result.code}`,
    });
  });

  it.each([
    ['a comment', '// export function paint() {}\nconst x = 1;'],
    ['a string', 'const s = "export function boot() {}";'],
    ['a template', 'const t = `export default 1`;'],
    ['an unexported function', 'function paint() {}'],
    ['a longer name', 'export function bootstrap() {}'],
  ])('refuses a lifecycle name only in %s with PIECE_NO_LIFECYCLE', async (_label, source) => {
    expect((await appErrorOf(publish(source))).code).toBe('PIECE_NO_LIFECYCLE');
  });

  it('refuses a syntax error with PIECE_SYNTAX and its position', async () => {
    const error = await appErrorOf(publish('export function paint() {\n  let = ;\n}'));
    expect(error.code).toBe('PIECE_SYNTAX');
    expect(error.details).toMatchObject({ line: 2, column: expect.any(Number) });
    expect(error.details.column).toBeGreaterThan(0);
  });

  it('stores the untrimmed module under <yyyy>/<mm>/<dd>/<code>.mjs and the record beside it', async () => {
    const source = '\nexport function paint() { /* stored */ }\n';
    const result = await publish(source);
    const record = await app.db.pieces.findOne({ code: result.code });
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
    expect(record).toMatchObject({
      slug: `${today}/${result.code}.mjs`,
      source: source.trim(),
      anonymous: true,
      hits: 1,
    });
    const object = await app.services.storage.get(`${today}/${result.code}.mjs`);
    expect(object?.body.toString()).toBe(source);
  });

  it('derives the code from the name, then numbers it for different content', async () => {
    const first = await publish('export function paint() { 1 }', 'Red Box!');
    const second = await publish('export function paint() { 2 }', 'red box');
    const third = await publish('export function paint() { 3 }', 'RED   BOX');
    expect([first.code, second.code, third.code]).toEqual(['red-box', 'red-box-2', 'red-box-3']);
    const same = await publish('export function paint() { 1 }', 'another name');
    expect(same).toMatchObject({ code: 'red-box', cached: true });
  });

  it('never gives a piece a reserved route as its code', async () => {
    const result = await publish('export function paint() { "api" }', 'api');
    expect(result.cached).toBe(false);
    expect(result.code).not.toBe('api');
  });

  it('accepts 100,000 characters and refuses one more with SOURCE_TOO_LONG', async () => {
    const make = (n: number) => `export function paint() {}\n//${'x'.repeat(n - 29)}`;
    expect(make(100_000)).toHaveLength(100_000);
    expect((await publish(make(100_000))).cached).toBe(false);
    expect((await appErrorOf(publish(make(100_001)))).code).toBe('SOURCE_TOO_LONG');
  });

  it.each([
    [12, 'NAME_INVALID'],
    ['n'.repeat(201), 'NAME_INVALID'],
  ])('refuses the name %j with %s and stores nothing', async (name, code) => {
    const before = await app.db.pieces.countDocuments();
    expect((await appErrorOf(publish('export function paint() { 9 }', name))).code).toBe(code);
    expect(await app.db.pieces.countDocuments()).toBe(before);
  });
});
