import type { IncomingMessage } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** What running an operation on the plain path came to: a result, or what it threw. */
export type RunOutcome = { result: unknown } | { thrown: unknown };

/** Operations run on the plain path (src/graphql/plain-post.ts) that Yoga's HTTP layer answers. */
const ranAlready = new WeakMap<IncomingMessage, RunOutcome>();

/** Leaves an operation already run for `req` to Yoga's HTTP layer, which `req` goes to next. */
export function handOver(req: IncomingMessage, outcome: RunOutcome): void {
  ranAlready.set(req, outcome);
}

/**
 * Hands Yoga what the plain path already ran, so no operation runs twice: a result goes through
 * its result hooks, processing and response hooks as any does; an error is thrown again where
 * Yoga's own run would have thrown it, and answered as Yoga answers it.
 */
export function useResultsRunAlready(): Plugin {
  return {
    onParams({ context, setResult }) {
      const req = (context as { req?: IncomingMessage }).req;
      const outcome = req && ranAlready.get(req);
      if (!req || !outcome) return;
      ranAlready.delete(req);
      if ('thrown' in outcome) throw outcome.thrown;
      setResult(outcome.result as ExecutionResult);
    },
  };
}
