import type { Plugin } from 'graphql-yoga';

/** How long a shared cache may keep an anonymous GET query's answer. */
export const GRAPHQL_GET_MAX_AGE_SECONDS = 30;

/** The Cache-Control of a GraphQL answer (as the plugin below sets it, and src/graphql/plain-post.ts). */
export function cacheControlOf(answer: {
  method: string;
  status: number;
  failed: boolean;
  withToken: boolean;
}): string {
  if (answer.method !== 'GET' || answer.status !== 200 || answer.failed) return 'no-store';
  return answer.withToken ? 'private, max-age=0' : `public, max-age=${GRAPHQL_GET_MAX_AGE_SECONDS}`;
}

/**
 * Cache headers of GraphQL answers. Only a GET query without errors may be kept: publicly when
 * it carried no token, privately (the browser's own cache, never a shared one) when it did,
 * since its answer may depend on the token; `Vary: Authorization` keeps the two apart.
 * Everything else (POST, errors, GraphiQL's page) is `no-store`.
 */
export function useHttpCaching(): Plugin {
  const failed = new WeakSet<Request>();
  return {
    onExecutionResult({ request, result }) {
      const results = Array.isArray(result) ? result : [result];
      if (results.some((one) => 'errors' in one && (one.errors?.length ?? 0) > 0))
        failed.add(request);
    },
    onResultProcess({ request, result }) {
      const results = Array.isArray(result) ? result : [result];
      if (results.some((one) => one && 'errors' in one && (one.errors?.length ?? 0) > 0))
        failed.add(request);
    },
    onResponse({ request, response }) {
      if (!response.headers.get('content-type')?.includes('json')) return;
      response.headers.append('Vary', 'Authorization');
      response.headers.set(
        'Cache-Control',
        cacheControlOf({
          method: request.method,
          status: response.status,
          failed: failed.has(request),
          withToken: request.headers.has('authorization'),
        }),
      );
    },
  };
}
