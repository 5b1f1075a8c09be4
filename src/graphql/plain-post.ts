import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import { CONTENT_LENGTH } from './body-limit.js';
import { cacheControlOf } from './http-caching.js';
import type { PreparedRun } from './prepared-run.js';
import { handOver } from './results-run-already.js';
import type { GraphqlHandler } from './yoga.js';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
/**
 * Accept headers as clients send them, with the media type Yoga's negotiation answers each with
 * (no Accept is `*\/*`, Apollo Client's). urql's default and the GraphQL-over-HTTP spec's
 * recommendation get the spec's own type. Any other Accept is left to Yoga.
 */
const ANSWERED_AS = new Map<string | undefined, string>([
  [undefined, 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
  [`${GRAPHQL_RESPONSE}, application/json;q=0.9`, GRAPHQL_RESPONSE],
  [
    `${GRAPHQL_RESPONSE}, application/graphql+json, application/json, text/event-stream, multipart/mixed`,
    GRAPHQL_RESPONSE,
  ],
]);
const JSON_BODY = new Set<string | undefined>([
  'application/json',
  'application/json; charset=utf-8',
]);
const PLAIN_KEYS = new Set(['query', 'variables', 'operationName']);

/**
 * A POST whose whole answer depends on its operation alone: the exact endpoint, a JSON body of
 * a known length within the limit, no Origin (so no CORS headers) and an Accept known to be
 * answered with JSON (ANSWERED_AS). Anything else goes through Yoga's HTTP layer untouched.
 */
function isPlainPost(req: IncomingMessage, endpoint: string, limit: number): boolean {
  const { headers } = req;
  const length = headers['content-length'];
  return (
    req.method === 'POST' &&
    req.url === endpoint &&
    JSON_BODY.has(headers['content-type']?.toLowerCase()) &&
    length !== undefined &&
    CONTENT_LENGTH.test(length) &&
    Number(length) <= limit &&
    headers.origin === undefined &&
    ANSWERED_AS.has(headers.accept)
  );
}

/**
 * The body's operation, when it is one object of a query string, variables (an object or null)
 * and an operation name, nothing else: a batch, persisted-query extensions, bad JSON or a
 * subscription (any document mentioning the word) are left to Yoga.
 */
function plainParams(body: Buffer): GraphQLParams | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const key in value) if (!PLAIN_KEYS.has(key)) return undefined;
  const { query, variables, operationName } = value as Record<string, unknown>;
  if (typeof query !== 'string' || query.includes('subscription')) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables)))
    return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return value as GraphQLParams;
}

function runInYoga(
  yoga: GraphqlHandler,
  req: IncomingMessage,
  res: ServerResponse,
  params: GraphQLParams,
) {
  const request = new yoga.fetchAPI.Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
    method: 'POST',
    headers: req.headers as Record<string, string>,
  });
  return yoga.getResultForParams({ params, request }, {
    req,
    res,
    waitUntil: yoga.waitUntil,
  } as never);
}

function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.allocUnsafe(length);
    let read = 0;
    req.on('data', (chunk: Buffer) => {
      chunk.copy(body, read);
      read += chunk.length;
    });
    req.once('end', () => resolve(body.subarray(0, read)));
    req.once('error', reject);
    // Closed before its end (the client went away): settled, so nothing waits for it.
    req.once('close', () => reject(new Error('request closed before its body ended')));
  });
}

/** What an answer Yoga would send with no error in it and no HTTP extension. */
function isPlainResult(result: unknown): result is ExecutionResult {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  if (Symbol.asyncIterator in result || 'stringify' in result) return false;
  const { errors, extensions } = result as ExecutionResult;
  return !errors?.length && !extensions?.http;
}

/** The result as JSON; undefined when it cannot be (Yoga's HTTP layer then answers its error). */
function stringified(result: ExecutionResult): string | undefined {
  try {
    return JSON.stringify(result);
  } catch {
    return undefined;
  }
}

/**
 * The GraphQL listener. A plain POST (above) skips Yoga's HTTP layer (its fetch Request and
 * Response, request parsers and response hooks), which cost a small read as much again as
 * running it (bench/graphql-cpu.ts). An operation already compiled runs prepared
 * (src/graphql/prepared-run.ts); any other runs through Yoga's own `getResultForParams` (the
 * `onParams` hooks, parse and validation caches, context, every envelop plugin, masked errors,
 * `onExecutionResult` hooks). A result without errors is written as Yoga writes it
 * (JSON, the cache headers of src/graphql/http-caching.ts); any other result, and any request
 * that is not plain, is answered by Yoga's HTTP layer, so every refusal keeps its status and
 * body. test/graphql/plain-post.test.ts holds the two paths to the same bytes.
 */
export function createGraphqlListener(
  yoga: GraphqlHandler,
  runPrepared: PreparedRun,
  limit: number,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const viaYoga = async (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    // @whatwg-node/server reads a body already read from `req.body` (its normalizeNodeRequest).
    if (body) Object.assign(req, { body });
    await yoga(req, res);
  };
  return async (req, res) => {
    if (!isPlainPost(req, yoga.graphqlEndpoint, limit)) return viaYoga(req, res);
    let body: Buffer;
    try {
      body = await readBody(req, Number(req.headers['content-length']));
    } catch {
      // The client went away mid-body: no one is left to answer.
      return;
    }
    const params = plainParams(body);
    if (!params) return viaYoga(req, res, body);
    let result: unknown;
    try {
      result = (await runPrepared(req, params)) ?? (await runInYoga(yoga, req, res, params));
    } catch (thrown) {
      // An error instead of a result: Yoga answers it as its own run would, without a second run.
      handOver(req, { thrown });
      return viaYoga(req, res, body);
    }
    const answer = isPlainResult(result) ? stringified(result) : undefined;
    if (answer === undefined) {
      handOver(req, { result });
      return viaYoga(req, res, body);
    }
    if (res.destroyed || res.writableEnded) return;
    res
      .writeHead(200, {
        'content-type': `${ANSWERED_AS.get(req.headers.accept)}; charset=utf-8`,
        'content-length': Buffer.byteLength(answer),
        vary: 'Authorization',
        'cache-control': cacheControlOf({
          method: 'POST',
          status: 200,
          failed: false,
          withToken: req.headers.authorization !== undefined,
        }),
      })
      .end(answer);
  };
}
