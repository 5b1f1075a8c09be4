import type { IncomingMessage } from 'node:http';
import {
  type Attributes,
  type Context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * A traced request: its tracer (each service owns its provider; none is registered globally, so
 * two services in one process, as in the tests, never share one) and its server span. No
 * AsyncLocalStorage carries it: on Node 20 its promise hooks tax every promise of the process
 * once one request runs in a store. It travels explicitly instead, as the `trace` of the
 * request's services (src/context.ts).
 */
export interface RequestTrace {
  tracer: Tracer;
  span: Span;
  context: Context;
  /** Ends the server span before the response does (a live stream, src/telemetry/stream-spans.ts). */
  end(): void;
}

/** One open span of a traced request: what starts below it is its child. */
export interface TraceScope {
  request: RequestTrace;
  span: Span;
  context: Context;
}

/**
 * Where a traced request keeps its trace: a property of its own, not a WeakMap. A WeakMap holding
 * every request in flight is an ephemeron table the young-generation collector walks at each
 * scavenge; with every request traced, that doubled the time spent collecting.
 */
const TRACE = Symbol('request trace');

type TracedMessage = IncomingMessage & { [TRACE]?: RequestTrace };

/** The trace of an HTTP request served in a recorded span (src/telemetry/telemetry.ts), if any. */
export const traceOfRequest = (req: IncomingMessage): RequestTrace | undefined =>
  (req as TracedMessage)[TRACE];

export const tracedRequest = (req: IncomingMessage, traced: RequestTrace): void => {
  (req as TracedMessage)[TRACE] = traced;
};

/** The request's own scope, its server span, for the services of a request context. */
export const requestScope = (request: RequestTrace): TraceScope => ({
  request,
  span: request.span,
  context: request.context,
});

/** The trace and span ids of a span, as the log lines carry them. */
export function spanIdsOf(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** A new trace (a delivery of a live stream) linked to the request's span. */
  root?: boolean;
}

/** Ends `span` with the error's kind (never its message: it can quote what the client sent). */
export function failSpan(span: Span, error: unknown): void {
  const code = (error as { code?: unknown })?.code;
  span.setAttribute(
    'error.type',
    typeof code === 'string' ? code : ((error as Error)?.name ?? 'Error'),
  );
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Starts a child span of `scope` (or a linked root one) and returns the scope it opens. */
export function childScope(scope: TraceScope, name: string, options: SpanOptions = {}): TraceScope {
  const parent = options.root ? ROOT_CONTEXT : scope.context;
  const links: Link[] = options.root ? [{ context: scope.request.span.spanContext() }] : [];
  const span = scope.request.tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    parent,
  );
  return { request: scope.request, span, context: trace.setSpan(parent, span) };
}

/**
 * Runs `work` in a child span of `scope`, given that span's scope; without a scope (an untraced
 * request, or work outside any request), just runs it.
 */
export function inSpan<T>(
  scope: TraceScope | undefined,
  name: string,
  work: (scope: TraceScope | undefined) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  if (!scope) return work(undefined);
  const child = childScope(scope, name, options);
  const fail = (error: unknown) => {
    failSpan(child.span, error);
    child.span.end();
  };
  let working: Promise<T>;
  try {
    working = work(child);
  } catch (error) {
    fail(error);
    return Promise.reject(error);
  }
  // Not an async function: that would add a promise and two turns of microtasks to every span.
  return working.then(
    (result) => {
      child.span.end();
      return result;
    },
    (error: unknown) => {
      fail(error);
      throw error;
    },
  );
}

/** Adds attributes to the span of `scope`, when there is one (a traced request's). */
export function annotate(scope: TraceScope | undefined, attributes: Attributes): void {
  scope?.span.setAttributes(attributes);
}

/** A search term as traces carry it: its length only, never its text. */
export const searchTermAttributes = (term: string) => ({ 'search.term.length': term.length });
