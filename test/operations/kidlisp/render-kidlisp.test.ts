import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradientPng } from '../../e2e/support/png.js';
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

  it('stamps a published painting from storage and names a painting code that has none', async () => {
    const slug = `2026/08/03/render-gradient-${Date.now()}.png`;
    await app.services.storage.put(slug, gradientPng(64, 64), 'image/png');
    const tracked = await postJson(
      `${app.url}/api/track-media`,
      { slug, ext: 'png' },
      { 'x-forwarded-for': '127.0.0.13' },
    );
    expect(tracked.status).toBe(200);
    const painting = tracked.body.code as string;
    const source = `(wipe black) (paste #${painting} 0 0) (stamp #nope9 4 4)`;
    const answer = await render({ source, width: 32, height: 32, frames: [0, 1] }, '127.0.0.14');
    expect(answer.status).toBe(200);
    // The gradient's pixel (10, 10): red and green 10/64 of the way, blue 160.
    expect(await pixelOf(answer.body.images[0].data, 10, 10)).toEqual([40, 40, 160, 255]);
    expect(answer.body.report.problems).toEqual([
      '#nope9: no painting is published under this code; it is not drawn',
    ]);
    expect(answer.body.report.unsupported).toEqual([]);
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
