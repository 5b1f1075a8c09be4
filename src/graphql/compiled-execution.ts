import {
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  type Source,
  type SourceLocation,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** Runs of one operation with Yoga's executor before it is compiled. */
const COMPILE_AT_RUN = 2;

/** Per operation: the runs so far, until it is compiled (null: graphql-jit refused it). */
type Tier = { runs: number } | { compiled: CompiledQuery | null };

/** The offset in the document of a line and column (both from 1), as graphql counts lines. */
function offsetOf(body: string, { line, column }: SourceLocation): number {
  const lineBreak = /\r\n|[\n\r]/g;
  let lineStart = 0;
  for (let at = 1; at < line && lineBreak.exec(body); at++) lineStart = lineBreak.lastIndex;
  return lineStart + column - 1;
}

/**
 * graphql-jit's errors as graphql-js makes them: they carry locations but not where in the
 * document they come from, which Yoga needs to show them, and are of jit's copy of graphql.
 */
function fromJit(result: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, {
        path: error.path,
        originalError: error.originalError,
        extensions: error.extensions,
        ...(source && error.locations
          ? { source, positions: error.locations.map((at) => offsetOf(source.body, at)) }
          : {}),
      }),
  );
  return { ...result, errors };
}

/**
 * Operations that clients repeat run as functions graphql-jit compiles from them, once, at their
 * second run: a read costs about half the GraphQL work of Yoga's interpreter (bench/items.ts).
 * A document sent once is interpreted, since compiling costs more than one run (8 ms against 3
 * for an introspection query), so a stream of distinct documents cannot make the server compile.
 * Subscriptions, and anything graphql-jit cannot compile, keep Yoga's executor. Variables are
 * coerced by graphql-js first, so a bad one is refused in the same words on every run
 * (useInputErrorCodes codes them INVALID_INPUT). Yoga's parser cache hands out one document per
 * query text; the tiers are kept by its operations, and go with them.
 */
export function useCompiledExecution(): Plugin {
  const tiers = new WeakMap<OperationDefinitionNode, Tier>();

  const compiledFor = (operation: OperationDefinitionNode, args: ExecutionArgs) => {
    const tier = tiers.get(operation) ?? { runs: 0 };
    if ('compiled' in tier) return tier.compiled;
    if (tier.runs + 1 < COMPILE_AT_RUN) {
      tiers.set(operation, { runs: tier.runs + 1 });
      return null;
    }
    const result = compileQuery(args.schema, args.document, operation.name?.value, {
      disablingCapturingStackErrors: true,
    });
    const compiled = isCompiledQuery(result) ? result : null;
    tiers.set(operation, { compiled });
    return compiled;
  };

  const runCompiled = async (
    compiled: CompiledQuery,
    operation: OperationDefinitionNode,
    args: ExecutionArgs,
  ) => {
    const coerced = getVariableValues(
      args.schema,
      operation.variableDefinitions ?? [],
      args.variableValues ?? {},
    );
    if (coerced.errors) return { errors: coerced.errors };
    const result = await compiled.query(args.rootValue, args.contextValue, args.variableValues);
    return fromJit(result, args.document.loc?.source);
  };

  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        // No such operation (or no name among several): Yoga's executor says so, as before.
        const operation = getOperationAST(args.document, args.operationName);
        const compiled = operation && compiledFor(operation, args);
        return operation && compiled ? runCompiled(compiled, operation, args) : executeFn(args);
      });
    },
  };
}
