import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelOf } from '../../mcp/render-surface.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { postJson } from '../../support/http-client.js';

/** POST /api/render-kidlisp, the route publish-mcp reaches render_kidlisp through (answers checked against OpenAPI). */

let app: TestApp;
beforeAll(async () => {
  // Two publishes (or renders) a window: the third of either is refused.
  app = await startTestApp({
    RATE_LIMIT_PUBLISH: '2',
    RATE_LIMIT_WINDOW_SECONDS: '600',
    TRUST_PROXY: 'loopback',
  });
});
afterAll(() => app?.close());

const render = (body: unknown, address = '127.0.0.9') =>
  postJson(`${app.url}/api/render-kidlisp`, body, { 'x-forwarded-for': address });

describe('POST /api/render-kidlisp', () => {
  it('draws a published work by its code ($ allowed)', async () => {
    const source = '(wipe navy) (ink red) (box 0 0 20 20) ; by code';
    const published = await postJson(`${app.url}/api/store-kidlisp`, { source });
    const code = published.body.code as string;
    const answer = await render({ code: `$${code}`, width: 32, height: 32 }, '127.0.0.10');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code, width: 32, height: 32, frames: [0] });
    expect(await pixelOf(answer.body.images[0].data, 10, 10)).toEqual([255, 0, 0, 255]);
    expect(await pixelOf(answer.body.images[0].data, 25, 25)).toEqual([0, 0, 128, 255]);
  });

  it.each([
    [{}, 400, 'SOURCE_REQUIRED'],
    [{ source: '(wipe red)', code: 'abc' }, 400, 'INVALID_INPUT'],
    [{ source: '(wipe red)', width: 0 }, 400, 'INVALID_INPUT'],
    [{ source: '(wipe red)', height: 513 }, 400, 'INVALID_INPUT'],
    [{ source: '(wipe red)', frames: [] }, 400, 'INVALID_INPUT'],
    [{ source: '(wipe red)', frames: [3_601] }, 400, 'INVALID_INPUT'],
    [{ source: '(wipe red)', seed: -1 }, 400, 'INVALID_INPUT'],
    [{ source: 'x'.repeat(50_001) }, 400, 'SOURCE_TOO_LONG'],
    [{ code: 'zzzzzz' }, 404, 'ITEM_NOT_FOUND'],
  ])('refuses %j with %i %s', async (body, status, code) => {
    const answer = await render(body, '127.0.0.11');
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code, message: expect.any(String) });
  });

  it('counts toward the publish rate limit like a publish', async () => {
    const address = '127.0.0.12';
    const publish = await postJson(
      `${app.url}/api/store-kidlisp`,
      { source: '(wipe gold) ; limit' },
      { 'x-forwarded-for': address },
    );
    expect(publish.status).toBe(201);
    expect((await render({ source: '(wipe red)' }, address)).status).toBe(200);
    const refused = await render({ source: '(wipe red)' }, address);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
