import { type ExecutionResult, getOperationAST, type OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAppError } from '../app-error.js';
import { observeIn, type RequestContext } from '../context.js';
import type { OperationUnit, Telemetry } from '../telemetry/telemetry.js';
import { withContractErrors } from './contract-errors.js';

interface Execution {
  document: Parameters<typeof getOperationAST>[0];
  operationName?: string | null | undefined;
}

/** The operation's span (`query ItemPage`) and metric label: its name, never its text. */
function unitOf(args: Execution, telemetry: Telemetry): OperationUnit {
  const operation = getOperationAST(args.document, args.operationName);
  const type: OperationTypeNode | 'query' = operation?.operation ?? 'query';
  const name = operation?.name?.value;
  return {
    face: 'graphql',
    name: telemetry.graphqlName(name),
    span: name ? `${type} ${name}` : type,
    attributes: {
      'graphql.operation.type': type,
      ...(name ? { 'graphql.operation.name': name } : {}),
    },
  };
}

/** The first error's code, when the result carries errors (an error without one is INTERNAL). */
function failureOf(result: unknown): string | undefined {
  const errors = (result as ExecutionResult | undefined)?.errors;
  if (!errors || errors.length === 0) return undefined;
  const [first] = errors;
  const code = first?.extensions?.code;
  if (typeof code === 'string') return code;
  // Before Yoga masks it, a resolver's error still carries the operation's own.
  return isAppError(first?.originalError) ? first.originalError.code : 'INTERNAL';
}

/**
 * One execution as an operation of the telemetry: its span, and its metrics by name and failure.
 * A traced run gets the context of its span as its contextValue, and its unexpected errors are
 * logged in that span.
 */
export function observeExecution<T, A extends Execution & { contextValue?: unknown }>(
  context: RequestContext,
  args: A,
  run: (args: A) => T | Promise<T>,
): Promise<T> {
  return observeIn(
    context,
    unitOf(args, context.services.telemetry),
    async (inner) =>
      withContractErrors(
        await run(inner === context ? args : { ...args, contextValue: inner }),
        inner.services,
      ),
    failureOf,
  );
}

/**
 * Each execution and subscription runs as one operation of the telemetry (src/telemetry/): a
 * span below the request's, and the metrics per operation name. Listed after the plugin that
 * compiles queries, so it wraps whichever executor that one chose.
 */
export function useOperationTelemetry(): Plugin<RequestContext> {
  return {
    onExecute({ executeFn, setExecuteFn, context }) {
      setExecuteFn((args) => observeExecution(context, args, executeFn));
    },
    onSubscribe({ subscribeFn, setSubscribeFn, context }) {
      setSubscribeFn((args) => observeExecution(context, args, subscribeFn));
    },
  };
}
