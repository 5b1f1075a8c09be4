import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('/metrics', () => {
  it('counts requests by route and status in Prometheus text, with bounded route labels', async () => {
    await postJson(`${app.url}/api/store-kidlisp`, { source: '(wipe red)' });
    await postJson(`${app.url}/api/store-kidlisp`, {});
    for (const path of ['/api/no-such-a', '/api/no-such-b', '/some-code-xyz'])
      await httpFetch(app.url + path);
    const response = await httpFetch(`${app.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /http_requests_total\{route="\/api\/store-kidlisp",method="POST",status="201"\} 1/,
    );
    expect(text).toMatch(
      /http_requests_total\{route="\/api\/store-kidlisp",method="POST",status="400"\} 1/,
    );
    expect(text).toMatch(/http_requests_total\{route="\/api\/other",method="GET",status="404"\} 2/);
    expect(text).toMatch(/http_requests_total\{route="page",method="GET",status="404"\} 1/);
    expect(text).not.toContain('no-such');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/store-kidlisp",method="POST"\}/,
    );
    expect(text).toContain('database_errors_total 0');
  });
});
