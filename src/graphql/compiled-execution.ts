import {
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  GraphQLError,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  type Source,
  type SourceLocation,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** The run of an operation at which it is compiled; the runs before it are interpreted. */
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
 * graphql-jit's result as graphql-js makes it: errors first, and each error with its place in
 * the document (jit's carry locations but not the source positions Yoga needs to show them).
 */
function fromJit(result: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!result.errors) return result;
  const { errors: jitErrors, ...rest } = result;
  const errors = jitErrors.map(
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
  return { errors, ...rest };
}

/**
 * Operations that clients repeat run as functions graphql-jit compiles from them, once, at their
 * second run: a read costs about half the GraphQL work of interpreting it (bench/items.ts).
 * A document sent once is interpreted, since compiling costs more than one run (8 ms against 3
 * for an introspection query), so a stream of distinct documents cannot make the server compile.
 * Anything graphql-jit cannot compile stays interpreted; subscriptions never reach this hook.
 *
 * The interpreter is graphql-js's `execute` (a parameter only so the tests can count its runs),
 * not Yoga's own: that one puts each field in the order it resolved rather than the order asked
 * (the spec's, as jit does), so a first run and the compiled ones answered different bytes.
 * A variable jit refuses is refused in graphql-js's words, as on the first run (useInputErrorCodes
 * codes them INVALID_INPUT); accepted ones are coerced once, by jit. Yoga's parser cache hands out one document
 * per query text; the tiers are kept by its operations, and go with them.
 */
export function useCompiledExecution(interpret: typeof execute = execute): Plugin {
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
    const result = await compiled.query(args.rootValue, args.contextValue, args.variableValues);
    if (!('data' in result)) {
      // jit refused the variables (it answers no data only then): in graphql-js's words.
      const coerced = getVariableValues(
        args.schema,
        operation.variableDefinitions ?? [],
        args.variableValues ?? {},
      );
      if (coerced.errors) return { errors: coerced.errors };
    }
    return fromJit(result, args.document.loc?.source);
  };

  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn((args) => {
        // No such operation (or no name among several): the interpreter says so.
        const operation = getOperationAST(args.document, args.operationName);
        const compiled = operation && compiledFor(operation, args);
        return operation && compiled ? runCompiled(compiled, operation, args) : interpret(args);
      });
    },
  };
}
