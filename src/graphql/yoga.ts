import type { IncomingMessage, ServerResponse } from 'node:http';
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { createRequestContext, type RequestContext, type Services } from '../context.js';
import { GRAPHQL_BATCH_MAX, MAX_BODY_BYTES } from '../http/body-limit.js';
import { clientAddressOf } from '../http/client-address.js';
import { traceOfRequest } from '../telemetry/active-span.js';
import { useBodyLimit } from './body-limit.js';
import { type CompiledOperations, useCompiledExecution } from './compiled-execution.js';
import { toGraphQLError } from './contract-errors.js';
import { useErrorBodies } from './error-bodies.js';
import { graphiqlOptions, renderLocalGraphiQL, useGraphiqlSecurity } from './graphiql.js';
import { useHttpCaching } from './http-caching.js';
import { schema } from './index.js';
import { useInputErrorCodes, useRequestErrorCodes } from './input-error-codes.js';
import { useOperationTelemetry } from './operation-telemetry.js';
import { usePersistedQueries } from './persisted-queries.js';
import { useQueryCost } from './query-cost.js';
import { useResultsRunAlready } from './results-run-already.js';

interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

export type GraphqlHandler = YogaServerInstance<ServerContext, RequestContext>;

/** Limits on what one document may ask for; real clients stay far below them. */
const armor = new EnvelopArmor({
  // Fragments are counted as their fields inlined, as the cost is; 12 lets three levels of a
  // nested page reach the cost model, which prices them.
  maxDepth: { n: 12, flattenFragments: true },
  maxAliases: { n: 15 },
  maxDirectives: { n: 20 },
  maxTokens: { n: 2_000 },
  // The cost of page sizes replaces armor's (useQueryCost, src/graphql/query-cost.ts).
  costLimit: { enabled: false },
  blockFieldSuggestion: { enabled: true },
});

/** The context of a GraphQL request: who asks (its bearer token) and from where. */
export function graphqlContext(
  services: Services,
  req: IncomingMessage,
  authorization: string | undefined,
): Promise<RequestContext> {
  return createRequestContext(services, {
    authorization,
    clientAddress: clientAddressOf(req, services.config.trustProxy),
    trace: traceOfRequest(req),
  });
}

export function createGraphqlHandler(
  services: Services,
  operations: CompiledOperations,
  options: { graphiql: boolean },
): GraphqlHandler {
  return createYoga<ServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The same 1 MiB as REST and /mcp (Yoga's own default is 25 MB), checked by useBodyLimit.
    maxRequestBodySize: false,
    graphiql: options.graphiql ? graphiqlOptions() : false,
    renderGraphiQL: renderLocalGraphiQL,
    logging: false,
    maskedErrors: { isDev: false, maskError: (error) => toGraphQLError(error, services) },
    // No CSRF plugin: the service authenticates with bearer tokens only, never cookies, so a
    // cross-site request has no ambient credential to borrow; queries over GET must just work.
    // Yoga itself keeps mutations POST-only (405 over GET).
    batching: { limit: GRAPHQL_BATCH_MAX },
    plugins: [
      useCompiledExecution(operations),
      useOperationTelemetry(),
      usePersistedQueries(),
      // After persisted queries: a result the plain path ran (src/graphql/plain-post.ts).
      useResultsRunAlready(),
      useHttpCaching(),
      useErrorBodies(),
      ...armor.protect().plugins,
      useQueryCost(),
      useGraphiqlSecurity(services.config),
      useInputErrorCodes(),
      useRequestErrorCodes(),
      // Last: it wraps whichever request parser the ones before chose.
      useBodyLimit(MAX_BODY_BYTES),
    ],
    context: ({ request, req }) =>
      graphqlContext(services, req, request.headers.get('authorization') ?? undefined),
  });
}
