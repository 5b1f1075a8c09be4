import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp } from '../mcp/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const graphql = (query: string) => postJson(`${app.url}/graphql`, { query });

const metricsText = async () => (await httpFetch(`${app.url}/metrics`)).text();

describe('/metrics per operation', () => {
  it('counts GraphQL operations by name, an unnamed one as `anonymous` and never by its text', async () => {
    await graphql('query MetricsHome { published(first: 1) { edges { node { code } } } }');
    await graphql('query MetricsHome { published(first: 2) { edges { node { code } } } }');
    await graphql('{ uniqueAnonymousField42: published(first: 1) { edges { cursor } } }');
    await graphql('query MetricsBadCode { item(code: "") { code } }');
    const text = await metricsText();
    expect(text).toMatch(/operation_requests_total\{face="graphql",operation="MetricsHome"\} 2/);
    expect(text).toMatch(/operation_requests_total\{face="graphql",operation="anonymous"\} 1/);
    expect(text).not.toContain('uniqueAnonymousField42');
    expect(text).toMatch(
      /operation_errors_total\{face="graphql",operation="MetricsBadCode",code="INVALID_INPUT"\} 1/,
    );
    expect(text).toMatch(
      /operation_duration_seconds_count\{face="graphql",operation="MetricsHome"\} 2/,
    );
  });

  it('counts REST routes by their template, failures by their code', async () => {
    const published = await postJson(`${app.url}/api/store-kidlisp`, { source: '(wipe blue)' });
    const { code } = published.body as { code: string };
    await httpFetch(`${app.url}/api/items/${code}`);
    await httpFetch(`${app.url}/api/items/zzzzzz`);
    const text = await metricsText();
    expect(text).toMatch(
      /operation_requests_total\{face="rest",operation="POST \/api\/store-kidlisp"\} 1/,
    );
    expect(text).toMatch(
      /operation_requests_total\{face="rest",operation="GET \/api\/items\/\{code\}"\} 2/,
    );
    expect(text).toMatch(
      /operation_errors_total\{face="rest",operation="GET \/api\/items\/\{code\}",code="ITEM_NOT_FOUND"\} 1/,
    );
    expect(text).not.toContain('zzzzzz');
  });

  it('counts MCP tool calls by tool', async () => {
    const client = await connectHttp(app.url);
    await client.callTool({ name: 'get_api_info', arguments: {} });
    await client.callTool({ name: 'get_item', arguments: { code: 'zzzzzz' } });
    await client.close();
    const text = await metricsText();
    expect(text).toMatch(/operation_requests_total\{face="mcp",operation="get_api_info"\} 1/);
    expect(text).toMatch(
      /operation_errors_total\{face="mcp",operation="get_item",code="ITEM_NOT_FOUND"\} 1/,
    );
  });

  it('counts the log lines it had to drop', async () => {
    expect(await metricsText()).toMatch(/^log_lines_dropped_total \d+$/m);
  });

  it('holds every series the Grafana dashboard in docs/grafana queries', async () => {
    const dashboard = JSON.parse(
      await readFile(new URL('../../docs/grafana/publish-gateway.json', import.meta.url), 'utf8'),
    ) as { panels: { targets?: { expr: string }[] }[] };
    const queried = new Set(
      dashboard.panels
        .flatMap((panel) => panel.targets ?? [])
        .flatMap((target) =>
          [...target.expr.matchAll(/([a-z][a-z0-9_]*)\{/g)].map((match) => match[1]),
        ),
    );
    expect(queried.size).toBeGreaterThan(8);
    const text = await metricsText();
    const served = new Set([...text.matchAll(/^([a-z][a-z0-9_]*)[{ ]/gm)].map((match) => match[1]));
    expect([...queried].filter((name) => !served.has(name))).toEqual([]);
  });
});
