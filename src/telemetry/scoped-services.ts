import { contextIn, type RequestContext, type Services } from '../context.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import { spanIdsOf, type TraceScope } from './active-span.js';
import { databaseIn } from './scoped-database.js';

/**
 * The services as one span of a traced request sees them: `trace` is that span, `db` sends its
 * commands so they become the span's children (src/telemetry/database-spans.ts), `logger`
 * writes its trace_id and span_id. Both are made on first use.
 */
export function servicesIn(scope: TraceScope): Services {
  const { root } = scope;
  let db: Database | undefined;
  let logger: Logger | undefined;
  return {
    ...root,
    trace: scope,
    get db() {
      db ??= databaseIn(root.db, scope);
      return db;
    },
    get logger() {
      logger ??= root.logger.child(spanIdsOf(scope.span));
      return logger;
    },
  };
}

/** A request's context as seen from one of its spans. */
export const withinScope = <C extends RequestContext>(ctx: C, scope: TraceScope): C =>
  contextIn(ctx, servicesIn(scope));
