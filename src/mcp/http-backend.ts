import { z } from 'zod';
import { itemFactsSchema } from '../operations/items/item-facts.js';
import { previewKidlisp } from '../operations/kidlisp/preview-kidlisp.js';
import type { KidlispExample } from '../operations/kidlisp/top-kidlisp.js';
import { runOperation } from '../operations/operation.js';
import {
  type AssistantBackend,
  type Call,
  type PublishResult,
  type Remix,
  ServiceError,
} from './backend.js';

export interface HttpBackendOptions {
  /** Base URL of the service, without a trailing slash. */
  serviceUrl: string;
  token?: string | undefined;
  timeoutMs: number;
}

const publishAnswer = z.object({ code: z.string(), cached: z.boolean(), url: z.string() });
const errorBody = z.looseObject({
  code: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
});
/** The `errors` of any GraphQL answer. */
const graphqlErrors = z.object({
  errors: z
    .array(
      z.object({
        message: z.string(),
        extensions: z.looseObject({ code: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});
const topKidlispAnswer = graphqlErrors.extend({
  data: z
    .object({
      topKidlisp: z.array(
        z.object({ code: z.string(), source: z.string(), hits: z.number(), url: z.string() }),
      ),
    })
    .nullish(),
});

/** The code and message of a REST error body, or of a GraphQL answer's first error. */
function failureIn(body: unknown): { code?: string | undefined; message?: string | undefined } {
  const rest = errorBody.safeParse(body);
  if (rest.success && (rest.data.code || rest.data.message || rest.data.error)) {
    return { code: rest.data.code, message: rest.data.message ?? rest.data.error };
  }
  const graphql = graphqlErrors.safeParse(body);
  const first = graphql.success ? graphql.data.errors?.[0] : undefined;
  return first ? { code: first.extensions?.code, message: first.message } : {};
}

const TOP_KIDLISP_QUERY =
  'query TopKidlisp($limit: Int) { topKidlisp(limit: $limit) { code source hits url } }';

/** The body's `remixOf`, sent only when the tool was given one. */
const remixOf = (input: Remix) => (input.remixOf !== undefined ? { remixOf: input.remixOf } : {});

/** The service's REST API (and one GraphQL read), for the stdio bin. */
export function httpBackend(options: HttpBackendOptions): AssistantBackend {
  const { serviceUrl, token, timeoutMs } = options;

  async function send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    call: Call,
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await fetch(`${serviceUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.any([call.signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (error) {
      if (call.signal.aborted) throw error; // cancelled by the client: nobody waits for an answer
      if ((error as Error).name === 'TimeoutError') {
        throw new ServiceError(
          'TIMEOUT',
          `The service at ${serviceUrl} did not answer within ${timeoutMs / 1000} s.`,
        );
      }
      const cause =
        (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new ServiceError(
        'SERVICE_UNREACHABLE',
        `The service at ${serviceUrl} could not be reached (${cause}). Check SERVICE_URL.`,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const failure = failureIn(parsed);
      throw new ServiceError(
        failure.code ?? `HTTP_${response.status}`,
        failure.message ?? `The service answered ${response.status} ${response.statusText}.`,
      );
    }
    if (parsed === undefined)
      throw new ServiceError(
        'SERVICE_RESPONSE_INVALID',
        `The service answered ${method} ${path} with something other than JSON.`,
      );
    return parsed;
  }

  const answer = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> => {
    const result = schema.safeParse(value);
    if (!result.success)
      throw new ServiceError(
        'SERVICE_RESPONSE_INVALID',
        `The service's answer to ${what} has an unexpected shape.`,
      );
    return result.data;
  };

  const publish = async (path: string, input: object, call: Call): Promise<PublishResult> => {
    const result = answer(publishAnswer, await send('POST', path, input, call), path);
    return { code: result.code, url: result.url, cached: result.cached };
  };

  return {
    publishKidlisp: (input, call) =>
      publish('/api/store-kidlisp', { source: input.source, ...remixOf(input) }, call),
    publishClock: (input, call) =>
      publish('/api/store-clock', { source: input.source, ...remixOf(input) }, call),
    publishPiece: (input, call) =>
      publish(
        '/api/store-piece',
        {
          source: input.source,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...remixOf(input),
        },
        call,
      ),
    // The validator is pure: no round trip, and it works while the service is away.
    previewKidlisp: (input) => runOperation(previewKidlisp, undefined, input),
    apiInfo: async (call) =>
      answer(
        z.record(z.string(), z.unknown()),
        await send('GET', '/api', undefined, call),
        'GET /api',
      ),
    topKidlisp: async (limit, call): Promise<KidlispExample[]> => {
      const result = answer(
        topKidlispAnswer,
        await send('POST', '/graphql', { query: TOP_KIDLISP_QUERY, variables: { limit } }, call),
        'topKidlisp',
      );
      const error = result.errors?.[0];
      if (error) throw new ServiceError(error.extensions?.code ?? 'INTERNAL', error.message);
      return result.data?.topKidlisp ?? [];
    },
    getItem: async (input, call) => {
      const path = `/api/items/${encodeURIComponent(input.code)}`;
      return answer(itemFactsSchema, await send('GET', path, undefined, call), path);
    },
  };
}
