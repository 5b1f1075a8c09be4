import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';

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
    { method = 'GET', headers = {}, body, timeoutMs = defaultTimeout }: SendOptions = {},
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
            ...(payload
              ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
              : {}),
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
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              json,
              ms: performance.now() - started,
            });
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
      req.end(payload);
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
    close: () => agent.destroy(),
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
