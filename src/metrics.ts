import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one service instance, served at /metrics. */
export interface Metrics {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  duration: Histogram<'route' | 'method'>;
  databaseErrors: Counter;
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
  };
}

const apiRoute = /^\/api\/[a-z-]+(\/[a-z-]+)?/;

/** A bounded set of route labels: known prefixes, never raw paths (codes would explode the series). */
export function routeLabel(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  if (path === '/graphql' || path === '/mcp' || path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  if (path.startsWith('/api')) return apiRoute.exec(path)?.[0] ?? '/api';
  return 'page';
}
