import { AsyncLocalStorage } from 'node:async_hooks';
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
 * What a traced request carries down its async calls: the tracer of the service that serves it
 * (each service owns its provider; none is registered globally, so two services in one process,
 * as in the tests, never share one) and the context of its innermost open span. Untraced work
 * (tracing off, or work outside any request) has none, and every helper here then only runs it.
 */
export interface Traced {
  tracer: Tracer;
  context: Context;
  /** The request's own (server) span, and how to end it before its response does (live streams). */
  request?: { span: Span; end(): void };
}

const store = new AsyncLocalStorage<Traced>();

export const tracedNow = (): Traced | undefined => store.getStore();

export const runTraced = <T>(traced: Traced, work: () => T): T => store.run(traced, work);

/** The trace and span ids of the innermost open span, for the log lines (src/logger.ts). */
export function activeSpanIds(): { trace_id: string; span_id: string } | undefined {
  const traced = store.getStore();
  const span = traced && trace.getSpan(traced.context);
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** A new trace (a delivery of a live stream) linked to the span it came from. */
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

/** Runs `work` inside a child span of the innermost open one; without a traced request, just runs it. */
export function inSpan<T>(
  name: string,
  work: (span: Span | undefined) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  const traced = store.getStore();
  if (!traced) return work(undefined);
  const from = options.root ? traced.request?.span : undefined;
  const links: Link[] = from ? [{ context: from.spanContext() }] : [];
  const span = traced.tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    options.root ? ROOT_CONTEXT : traced.context,
  );
  const context = trace.setSpan(options.root ? ROOT_CONTEXT : traced.context, span);
  return store.run({ ...traced, context }, async () => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the innermost open span of a traced request (none otherwise). */
export function annotate(attributes: Attributes): void {
  const traced = store.getStore();
  if (traced) trace.getSpan(traced.context)?.setAttributes(attributes);
}

/** A search term as traces carry it: its length only, never its text. */
export const searchTermAttributes = (term: string) => ({ 'search.term.length': term.length });
