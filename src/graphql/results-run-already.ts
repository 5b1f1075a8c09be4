import type { IncomingMessage } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Results run on the plain path (src/graphql/plain-post.ts) that Yoga's HTTP layer answers. */
const ranAlready = new WeakMap<IncomingMessage, unknown>();

/** Leaves `result`, already run for `req`, to Yoga's HTTP layer, which `req` goes to next. */
export function handOver(req: IncomingMessage, result: unknown): void {
  ranAlready.set(req, result);
}

/**
 * Hands Yoga a result the plain path already ran, so no operation runs twice: its `onParams`
 * hooks, then its result hooks, processing and response hooks answer it as they answer any.
 */
export function useResultsRunAlready(): Plugin {
  return {
    onParams({ context, setResult }) {
      const req = (context as { req?: IncomingMessage }).req;
      if (!req || !ranAlready.has(req)) return;
      setResult(ranAlready.get(req) as ExecutionResult);
      ranAlready.delete(req);
    },
  };
}
