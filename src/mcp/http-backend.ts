import { z } from 'zod';
import { kidlispRenderAnswerSchema } from '../operations/assistant-catalog.js';
import { itemFactsSchema } from '../operations/items/item-facts.js';
import { worksSearchAnswerSchema } from '../operations/items/works-search-answer.js';
import { previewKidlisp } from '../operations/kidlisp/preview-kidlisp.js';
import type { KidlispExample } from '../operations/kidlisp/top-kidlisp.js';
import { runOperation } from '../operations/operation.js';
import {
  type AssistantBackend,
  type Call,
  type PublishResult,
  RECENT_FOR_COMPLETION,
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

const recentAddressesAnswer = graphqlErrors.extend({
  data: z
    .object({
      published: z.object({
        edges: z.array(z.object({ node: z.object({ address: z.string() }) })),
      }),
    })
    .nullish(),
});

const RECENT_ADDRESSES_QUERY =
  'query RecentAddresses($first: Int) { published(first: $first) { edges { node { address } } } }';

const TOP_KIDLISP_QUERY =
  'query TopKidlisp($limit: Int) { topKidlisp(limit: $limit) { code source hits url } }';

/** The body's `remixOf`, sent only when the tool was given one. */
const remixOf = (input: Remix) => (input.remixOf !== undefined ? { remixOf: input.remixOf } : {});

/** The service's REST API (and one GraphQL read), for the stdio bin. */
export function httpBackend(options: HttpBackendOptions): AssistantBackend {
  const { serviceUrl, token, timeoutMs } = options;

  /** One request to the service; an unreachable or silent service is a ServiceError. */
  async function fetchFrom(
    path: string,
    init: { method: 'GET' | 'POST'; accept: string; body?: unknown },
    call: Call,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: init.accept };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      return await fetch(`${serviceUrl}${path}`, {
        method: init.method,
        headers,
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
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
  }

  async function send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    call: Call,
  ): Promise<unknown> {
    const response = await fetchFrom(path, { method, accept: 'application/json', body }, call);
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

  /** The first error of a GraphQL answer, as the service's failure. */
  const graphqlData = <D>(result: {
    errors?:
      | { message: string; extensions?: { code?: string | undefined } | undefined }[]
      | undefined;
    data?: D | null | undefined;
  }): D | undefined => {
    const error = result.errors?.[0];
    if (error) throw new ServiceError(error.extensions?.code ?? 'INTERNAL', error.message);
    return result.data ?? undefined;
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
      return graphqlData(result)?.topKidlisp ?? [];
    },
    getItem: async (input, call) => {
      const path = `/api/items/${encodeURIComponent(input.code)}`;
      return answer(itemFactsSchema, await send('GET', path, undefined, call), path);
    },
    searchWorks: async (input, call) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(input))
        if (value !== undefined) query.set(name, String(value));
      const path = `/api/items?${query}`;
      return answer(
        worksSearchAnswerSchema,
        await send('GET', path, undefined, call),
        'GET /api/items',
      );
    },
    // Drawing needs the runtime and a canvas: the service draws, this package only asks.
    renderKidlisp: async (input, call) =>
      answer(
        kidlispRenderAnswerSchema,
        await send('POST', '/api/render-kidlisp', input, call),
        'POST /api/render-kidlisp',
      ),
    recentAddresses: async (call) => {
      const result = answer(
        recentAddressesAnswer,
        await send(
          'POST',
          '/graphql',
          { query: RECENT_ADDRESSES_QUERY, variables: { first: RECENT_FOR_COMPLETION } },
          call,
        ),
        'published',
      );
      return graphqlData(result)?.published.edges.map((edge) => edge.node.address) ?? [];
    },
    paintingPng: async (code, call) => {
      const path = `/${encodeURIComponent(code)}.png`;
      const response = await fetchFrom(path, { method: 'GET', accept: 'image/png' }, call);
      if (response.status === 404) return null;
      if (!response.ok)
        throw new ServiceError(
          `HTTP_${response.status}`,
          `The service answered GET ${path} with ${response.status} ${response.statusText}.`,
        );
      return Buffer.from(await response.arrayBuffer());
    },
  };
}
