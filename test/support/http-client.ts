import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { assertDocumented, openapiCheckerFor } from './openapi-check.js';

/**
 * THE HTTP helper of the tests: every request a test sends to a running service goes through
 * `createHttpClient` (raw, keep-alive, any bytes), `httpFetch` (fetch, for redirects and web
 * streams) or the JSON shorthands built on it (`getJson`, `postJson`, `graphql`). Each answer of
 * the REST face, success or error, is checked against the service's own /api/openapi.json
 * (test/support/openapi-check.ts) before the test sees it, so the document cannot drift from
 * what the server does.
 */

/** One answer, with its body as text and (when it parses) as JSON. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
  /** Wall time from sending the request to the end of the body, in milliseconds. */
  ms: number;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Fail (instead of waiting for ever) when no complete answer came within this time. */
  timeoutMs?: number;
  /** The body's Content-Type (JSON by default); null sends none. */
  contentType?: string | null;
  /** Sends the body in chunks, without Content-Length. */
  chunked?: boolean;
}

export interface HttpClient {
  send(path: string, options?: SendOptions): Promise<RawResponse>;
  /** POSTs JSON (a string body is sent verbatim, for malformed JSON). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  get(path: string, headers?: Record<string, string>): Promise<RawResponse>;
  graphql(
    query: string,
    variables?: unknown,
    headers?: Record<string, string>,
  ): Promise<RawResponse>;
  /** Resolves once the OpenAPI checker of this service is built (before a timed load, say). */
  ready(): Promise<void>;
  close(): void;
}

export class HangError extends Error {
  override name = 'HangError';
}

/** A keep-alive HTTP client for many small requests to one test server. */
export function createHttpClient(
  baseUrl: string,
  options: { maxSockets?: number; timeoutMs?: number } = {},
): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 16 });
  const base = new URL(baseUrl);
  const defaultTimeout = options.timeoutMs ?? 10_000;

  const send = (
    path: string,
    {
      method = 'GET',
      headers = {},
      body,
      timeoutMs = defaultTimeout,
      contentType = 'application/json',
      chunked = false,
    }: SendOptions = {},
  ) =>
    new Promise<RawResponse>((resolve, reject) => {
      const payload =
        body === undefined
          ? undefined
          : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const started = performance.now();
      const req = httpRequest(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: {
            ...(payload && contentType !== null ? { 'content-type': contentType } : {}),
            ...(payload && !chunked ? { 'content-length': String(payload.length) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            const answer = {
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              json,
              ms: performance.now() - started,
            };
            assertDocumented(base.origin, {
              method,
              path: new URL(path, base).pathname,
              status: answer.status,
              headers: (name) => headerText(res.headers[name.toLowerCase()]),
              text,
            }).then(() => resolve(answer), reject);
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy(
          new HangError(
            `${method} ${path.slice(0, 120)} got no complete answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      if (payload && chunked) {
        const CHUNK = 64 * 1024;
        for (let at = 0; at < payload.length; at += CHUNK)
          req.write(payload.subarray(at, at + CHUNK));
        req.end();
      } else req.end(payload);
    });

  return {
    send,
    post: (path, body, headers = {}) => send(path, { method: 'POST', body, headers }),
    get: (path, headers = {}) => send(path, { headers }),
    graphql: (query, variables = {}, headers = {}) =>
      send('/graphql', {
        method: 'POST',
        body: { query, variables },
        headers: { accept: 'application/json', ...headers },
      }),
    ready: async () => {
      await openapiCheckerFor(base.origin);
    },
    close: () => agent.destroy(),
  };
}

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : value;

/** `fetch`, with the answer checked against the OpenAPI document when it is the REST face's. */
export async function httpFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(input, init);
  // An event stream never ends: it is handed over as it is, for the test to read and cancel.
  if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream'))
    return response;
  const text = await response.text();
  const url = new URL(response.url || String(input));
  await assertDocumented(url.origin, {
    method: (init.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    status: response.status,
    headers: (name) => response.headers.get(name) ?? undefined,
    text,
  });
  const nullBody = [101, 204, 205, 304].includes(response.status);
  return new Response(nullBody ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** An answer read as JSON: status, headers and the parsed body (undefined when empty). */
async function jsonAnswer(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as Record<string, any>,
  };
}

/** GETs a URL and parses its JSON answer. */
export async function getJson(url: string, headers: Record<string, string> = {}) {
  return jsonAnswer(await httpFetch(url, { headers }));
}

/** POSTs JSON (a string body is sent verbatim, for malformed JSON) and parses the answer. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return jsonAnswer(
    await httpFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** Runs a GraphQL operation over HTTP POST. */
export async function graphql(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await httpFetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: any;
      errors?: { message: string; extensions?: Record<string, any> }[];
    },
  };
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the results in order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A TCP port nothing listens on right now (for a server that must come back on the same port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
