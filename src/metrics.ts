import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { droppedLogLines } from './logger.js';
import { createOperationMetrics, type OperationMetrics } from './telemetry/operation-metrics.js';

/** Prometheus metrics of one service instance, served at /metrics. */
export interface Metrics {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  duration: Histogram<'route' | 'method'>;
  databaseErrors: Counter;
  kidlispRenders: Counter<'purpose'>;
  /** Per GraphQL operation, REST route and MCP tool (src/telemetry/operation-metrics.ts). */
  operations: OperationMetrics;
  droppedLogLines: Counter;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    databaseErrors: new Counter({
      name: 'database_errors_total',
      help: 'Requests that failed because the database was unavailable',
      registers: [registry],
    }),
    kidlispRenders: new Counter({
      name: 'kidlisp_renders_total',
      help: 'KidLisp pictures drawn, by purpose: thumbnail (at publish), share (on request), render_tool',
      labelNames: ['purpose'] as const,
      registers: [registry],
    }),
    operations: createOperationMetrics(registry),
    droppedLogLines: new Counter({
      name: 'log_lines_dropped_total',
      help: 'Log lines dropped: their reader had gone, or it fell 16 MiB behind (src/logger.ts)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    }),
  };
}

const fixedRoutes = ['/graphql', '/mcp', '/healthz', '/readyz', '/metrics', '/api-docs.json'];

/**
 * Route labels from a fixed list: the service's own paths and the documented API paths.
 * Anything else is 'other' (under /api) or 'page', so clients cannot multiply the series.
 */
export function createRouteLabeler(apiPaths: string[]): (url: string | undefined) => string {
  const known = new Set([...fixedRoutes, ...apiPaths.filter((path) => !path.includes('{'))]);
  // A path with a `{parameter}` segment (/api/items/{code}) is labelled by its pattern.
  const patterns = apiPaths
    .filter((path) => path.includes('{'))
    .map((path) => ({
      label: path,
      test: new RegExp(
        `^${path
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    }));
  return (url) => {
    const path = (url ?? '/').split('?')[0] ?? '/';
    if (known.has(path)) return path;
    const pattern = patterns.find((candidate) => candidate.test.test(path));
    if (pattern) return pattern.label;
    return path === '/api' || path.startsWith('/api/') ? '/api/other' : 'page';
  };
}
