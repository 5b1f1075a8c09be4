import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import { isAppError } from '../app-error.js';
import { expressPath } from '../domain/route-path.js';
import type { Logger } from '../logger.js';
import {
  childScope,
  failSpan,
  type RequestTrace,
  type TraceScope,
  tracedRequest,
} from './active-span.js';
import { createGraphqlNameLabeler, type Face, type OperationMetrics } from './operation-metrics.js';
import type { TraceExport } from './trace-export.js';
import { readTraceSettings } from './trace-settings.js';

/** One operation as a face asks for it: a GraphQL operation, a REST route's operation, an MCP tool. */
export interface OperationUnit {
  face: Face;
  /** The metric label: bounded (a GraphQL name through `graphqlName`, a route template, a tool). */
  name: string;
  /** The span's name (`query ItemPage`, `tools/call get_item`); none when the operation's own span says it all (REST). */
  span?: string;
  attributes?: Attributes;
}

/** Traces, and the metrics per operation, of one service instance (docs/operations.md). */
export interface Telemetry {
  /**
   * Handles one HTTP request inside its server span, named by `route` (a template of the route
   * table, or undefined when the path is none of them) and continuing the client's traceparent.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    route: string | undefined,
    handle: () => void,
  ): void;
  /**
   * Runs one operation inside its span below `scope` (a traced request's), counted on /metrics:
   * `work` is given the scope of that span (src/context.ts observeIn). `failure` names the error
   * code of a result that reports a failure without throwing (a GraphQL result with errors).
   */
  observe<T>(
    unit: OperationUnit,
    scope: TraceScope | undefined,
    work: (scope: TraceScope | undefined) => Promise<T>,
    failure?: (result: T) => string | undefined,
  ): Promise<T>;
  /** A GraphQL operation name as a bounded label: `anonymous` when unnamed. */
  graphqlName(name: string | undefined): string;
  close(): Promise<void>;
}

/** How long closing waits for the last spans to be exported. */
const EXPORT_AT_CLOSE_MS = 3_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const headerGetter: TextMapGetter<IncomingMessage['headers']> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** Labels of the route labeler that are no template (src/metrics.ts). */
const NO_TEMPLATE = new Set(['page', '/api/other']);

const codeOf = (error: unknown) => (isAppError(error) ? error.code : 'INTERNAL');

function serverSpanAttributes(
  req: IncomingMessage,
  method: string,
  template: string | undefined,
): Attributes {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  return {
    'http.request.method': method,
    // Never the query: it carries search terms and other values a client sent.
    'url.path': mark === -1 ? url : url.slice(0, mark),
    'url.scheme': 'http',
    'network.protocol.version': req.httpVersion,
    ...(template ? { 'http.route': template } : {}),
  };
}

export async function createTelemetry(
  metrics: OperationMetrics,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Telemetry> {
  const settings = readTraceSettings(env);
  if (!settings.enabled && settings.refused)
    logger.warn({ reason: settings.reason }, 'tracing off');
  const exported: TraceExport | undefined = settings.enabled
    ? // Loaded only when tracing is on: off, not one module of the SDK is.
      (await import('./trace-export.js')).createTraceExport(
        settings.protocol,
        settings.propagators,
        (count) => logger.warn({ spans: count }, 'spans dropped: the export queue was full'),
      )
    : undefined;
  if (exported)
    logger.info({ protocol: settings.enabled && settings.protocol }, 'traces exported over OTLP');
  const graphqlName = createGraphqlNameLabeler();

  const observe = async <T>(
    unit: OperationUnit,
    scope: TraceScope | undefined,
    work: (scope: TraceScope | undefined) => Promise<T>,
    failure?: (result: T) => string | undefined,
  ): Promise<T> => {
    const labels = { face: unit.face, operation: unit.name };
    const stopTimer = metrics.duration.startTimer(labels);
    metrics.requests.inc(labels);
    const inner =
      scope && unit.span !== undefined
        ? childScope(scope, unit.span, { attributes: unit.attributes })
        : undefined;
    try {
      const result = await work(inner ?? scope);
      const code = failure?.(result);
      if (code) {
        metrics.errors.inc({ ...labels, code });
        inner?.span.setAttribute('error.type', code).setStatus({ code: SpanStatusCode.ERROR });
      }
      return result;
    } catch (error) {
      metrics.errors.inc({ ...labels, code: codeOf(error) });
      if (inner) failSpan(inner.span, error);
      throw error;
    } finally {
      stopTimer();
      inner?.span.end();
    }
  };

  if (!exported)
    return {
      serve: (_req, _res, _route, handle) => handle(),
      observe,
      graphqlName,
      close: async () => {},
    };

  const { tracer, propagator } = exported;
  /** The route table's paths as span names write them, worked out once per route. */
  const templates = new Map<string, string>();
  const templateOf = (route: string) => {
    if (!templates.has(route)) templates.set(route, expressPath(route));
    return templates.get(route) as string;
  };
  return {
    serve(req, res, route, handle) {
      const parent: Context = propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
      const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
      const template = route && !NO_TEMPLATE.has(route) ? templateOf(route) : undefined;
      const span: Span = tracer.startSpan(
        template ? `${method} ${template}` : method,
        { kind: SpanKind.SERVER, attributes: serverSpanAttributes(req, method, template) },
        parent,
      );
      // Sampled out: nothing below would be recorded, so nothing is carried down either.
      if (!span.isRecording()) {
        handle();
        return;
      }
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      const traced: RequestTrace = {
        tracer,
        span,
        context: trace.setSpan(parent, span),
        end,
      };
      res.once('finish', end);
      res.once('close', end);
      // The faces find it by the request when they make its context (src/context.ts).
      tracedRequest(req, traced);
      handle();
    },
    observe,
    graphqlName,
    // The spans still batched go out first, unless the collector takes longer than that.
    close: () => Promise.race([exported.shutdown(), delay(EXPORT_AT_CLOSE_MS)]),
  };
}
