import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errorHeaders } from '../app-error.js';
import {
  createRequestContext,
  observeIn,
  type RequestContext,
  type Services,
  servicesOfRequest,
} from '../context.js';
import { clientAddressOf } from '../http/client-address.js';
import { apiCors } from '../http/cors.js';
import { toAppError } from '../http/failure.js';
import { baseSecurity } from '../http/html/page-security.js';
import { queryParams } from '../http/query-params.js';
import {
  type AnyOperation,
  pathParamsOf,
  pathsOf,
  queryNamesOf,
  routeTable,
} from '../http/routes/index.js';
import { runOperation } from '../operations/operation.js';
import { traceOfRequest } from '../telemetry/active-span.js';
import { answerHeaders, restUnit } from './operation-handler.js';

/** What express itself would use for these answers: its query parser and its ETag function. */
export interface ExpressSettings {
  parseQuery: (query: string) => object;
  etag: (body: Buffer) => string;
}

type Header = [name: string, value: string];

/**
 * The headers a GET under /api carries before its route runs (the security headers, then CORS),
 * taken from those same middlewares, run once on a recorder: neither depends on the request.
 */
function headersBeforeRoute(services: Services): Header[] {
  const headers = new Map<string, Header>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`header ${name} is not a plain string`);
      headers.set(name.toLowerCase(), [name, value]);
    },
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  const request = { method: 'GET', url: '/api', headers: {} };
  const middlewares: RequestHandler[] = [baseSecurity(services.config), apiCors()];
  for (const middleware of middlewares) {
    let passed = false;
    middleware(request as never, recorder as never, (error?: unknown) => {
      if (error) throw error;
      passed = true;
    });
    if (!passed) throw new Error('a middleware before the REST routes answered by itself');
  }
  return [...headers.values()];
}

interface ReadRoute {
  operation: AnyOperation;
  /** How /metrics counts it (src/rest/operation-handler.ts). */
  unit: ReturnType<typeof restUnit>;
  names: string[];
  /** The answer's own headers (`read`: never cached). */
  headers: Record<string, string>;
  /** The name of the path's one `{parameter}`, if it has one. */
  param?: string;
}

/** A path segment express would hand over as it is (no percent-decoding to do). */
const PLAIN_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

/**
 * The REST reads (GET rows of the route table that run an operation on the query and answer
 * `read` or `ok`) answered straight from node:http: express's router and its middleware chains
 * cost several times what the read's own work does (bench/items.ts). The answer is the one
 * express sends: the same headers (from the same middlewares), JSON, Content-Length and ETag
 * (express's own function), status and error shape. Only the plain case is taken: a GET
 * without body or conditional headers, on a row's exact path; anything else (HEAD, OPTIONS,
 * If-None-Match, another spelling of the path) goes on to express, which answers it as before.
 */
export function createReadRoutes(
  services: Services,
  express: ExpressSettings,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const exact = new Map<string, ReadRoute>();
  const byPrefix = new Map<string, ReadRoute>();
  for (const route of routeTable(services.config.publicUrl)) {
    const { serve } = route;
    if (route.method !== 'GET' || serve.face !== 'rest' || serve.from !== 'query') continue;
    if (serve.answer !== 'read' && serve.answer !== 'ok') continue;
    for (const path of pathsOf(route)) {
      const params = pathParamsOf(path);
      const read = {
        operation: serve.operation,
        unit: restUnit(route),
        names: queryNamesOf(route),
        headers: answerHeaders[serve.answer],
      };
      if (params.length === 0) exact.set(path, read);
      // Only a last `{parameter}` segment is taken here; other shapes stay with express.
      else if (params.length === 1 && path.endsWith(`/{${params[0]}}`))
        byPrefix.set(path.slice(0, path.lastIndexOf('/') + 1), { ...read, param: params[0] });
    }
  }
  const before = headersBeforeRoute(services).flat();

  const send = (
    res: ServerResponse,
    status: number,
    own: Record<string, string>,
    body: unknown,
  ) => {
    const bytes = Buffer.from(JSON.stringify(body));
    const headers = [...before];
    for (const name in own) headers.push(name, own[name] as string);
    headers.push(
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(bytes.length),
      'ETag',
      express.etag(bytes),
    );
    res.writeHead(status, headers).end(bytes);
  };

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    read: ReadRoute,
    input: object,
  ) => {
    let ctx: RequestContext | undefined;
    try {
      ctx = await createRequestContext(services, {
        authorization: req.headers.authorization,
        clientAddress: clientAddressOf(req, services.config.trustProxy),
        trace: traceOfRequest(req),
      });
      const result = await observeIn(ctx, read.unit, (ctx) =>
        runOperation(read.operation, ctx, input),
      );
      send(res, 200, read.headers, result);
    } catch (error) {
      const failure = toAppError(error, ctx?.services ?? servicesOfRequest(services, req));
      send(res, failure.status, errorHeaders(failure), failure.toJSON());
    }
  };

  return (req, res) => {
    if (
      req.method !== 'GET' ||
      req.headers['content-length'] !== undefined ||
      req.headers['transfer-encoding'] !== undefined ||
      req.headers['if-none-match'] !== undefined ||
      req.headers['if-modified-since'] !== undefined
    )
      return false;
    const url = req.url ?? '';
    if (url.includes('#')) return false;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    let read = exact.get(path);
    let params: Record<string, string> = {};
    if (!read) {
      const slash = path.lastIndexOf('/');
      const segment = path.slice(slash + 1);
      read = byPrefix.get(path.slice(0, slash + 1));
      if (!read?.param || !PLAIN_SEGMENT.test(segment)) return false;
      params = { [read.param]: segment };
    }
    const query = express.parseQuery(mark === -1 ? '' : url.slice(mark + 1));
    void answer(req, res, read, { ...queryParams(query, read.names), ...params });
    return true;
  };
}
