import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://art.example' });
});
afterAll(() => app.close());

const publish = (source: string, name?: string) =>
  postJson(`${app.url}/api/store-piece`, name === undefined ? { source } : { source, name });

describe('store-piece', () => {
  it.each([
    ['export async function paint', 'export async function paint({ wipe }) { wipe(0); }'],
    ['export const boot = ...', 'export const boot = () => {};'],
    ['export { act }', 'function act() {}\nexport { act };'],
    ['export default', 'export default function () {}'],
    ['export { x as sim }', 'const x = () => {};\nexport { x as sim };'],
  ])('accepts %s', async (_label, source) => {
    const response = await publish(source);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      cached: false,
      url: `https://art.example/${response.body?.code}`,
    });
  });

  it.each([
    ['a comment', '// export function paint() {}\nconst x = 1;'],
    ['a string', 'const s = "export function boot() {}";'],
    ['a template', 'const t = `export default 1`;'],
    ['an unexported function', 'function paint() {}'],
    ['a longer name', 'export function bootstrap() {}'],
  ])('rejects a lifecycle name only in %s', async (_label, source) => {
    const response = await publish(source);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'PIECE_NO_LIFECYCLE' });
  });

  it('stores the untrimmed module in storage under <yyyy>/<mm>/<dd>/<code>.mjs and the record beside it', async () => {
    const source = '\nexport function paint() { /* stored */ }\n';
    const response = await publish(source);
    const record = await app.db.pieces.findOne({ code: response.body?.code });
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
    expect(record).toMatchObject({
      slug: `${today}/${response.body?.code}`,
      source: source.trim(),
      anonymous: true,
      hits: 1,
    });
    const object = await app.service.services.storage.get(`${record?.slug}.mjs`);
    expect(object?.body.toString()).toBe(source);
  });

  it('derives the code from the name, then numbers it for different content', async () => {
    const first = await publish('export function paint() { 1 }', 'Red Box!');
    const second = await publish('export function paint() { 2 }', 'red box');
    const third = await publish('export function paint() { 3 }', 'RED   BOX');
    expect([first.body?.code, second.body?.code, third.body?.code]).toEqual([
      'red-box',
      'red-box-2',
      'red-box-3',
    ]);
    const same = await publish('export function paint() { 1 }', 'another name');
    expect(same.body).toMatchObject({ code: 'red-box', cached: true });
  });

  it('never gives a piece a reserved route as its code', async () => {
    const response = await publish('export function paint() { "api" }', 'api');
    expect(response.status).toBe(201);
    expect(response.body?.code).not.toBe('api');
  });
});
