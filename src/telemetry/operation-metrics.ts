import { Counter, Histogram, type Registry } from 'prom-client';

/** The face an operation was asked through. */
export type Face = 'graphql' | 'rest' | 'mcp';

/** What /metrics counts per operation (docs/operations.md), beside the per-route HTTP series. */
export const OPERATION_METRICS = {
  requests: 'operation_requests_total',
  errors: 'operation_errors_total',
  duration: 'operation_duration_seconds',
} as const;

export interface OperationMetrics {
  requests: Counter<'face' | 'operation'>;
  errors: Counter<'face' | 'operation' | 'code'>;
  duration: Histogram<'face' | 'operation'>;
}

export function createOperationMetrics(registry: Registry): OperationMetrics {
  return {
    requests: new Counter({
      name: OPERATION_METRICS.requests,
      help: 'Operations run, by face (graphql, rest, mcp) and operation (GraphQL operation name, REST route, MCP tool)',
      labelNames: ['face', 'operation'] as const,
      registers: [registry],
    }),
    errors: new Counter({
      name: OPERATION_METRICS.errors,
      help: 'Operations that failed, by face, operation and error code (docs/contract.md, Errors)',
      labelNames: ['face', 'operation', 'code'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: OPERATION_METRICS.duration,
      help: 'Operation latency by face and operation',
      labelNames: ['face', 'operation'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}

/** Distinct GraphQL operation names one process labels; later new names count as `other`. */
export const GRAPHQL_NAMES_MAX = 200;

/**
 * GraphQL operation names are chosen by clients: an unnamed operation is `anonymous` (never its
 * text), and past GRAPHQL_NAMES_MAX distinct names every new one is `other`, so no client can
 * multiply the series.
 */
export function createGraphqlNameLabeler(
  max = GRAPHQL_NAMES_MAX,
): (name: string | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'anonymous';
    if (seen.has(name)) return name;
    if (seen.size >= max) return 'other';
    seen.add(name);
    return name;
  };
}
