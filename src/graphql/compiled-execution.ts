import {
  type DocumentNode,
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
import { LRUCache } from 'lru-cache';

/** The run of an operation at which it is compiled; the runs before it are interpreted. */
const COMPILE_AT_RUN = 2;

/**
 * Compiled operations kept by their text for src/graphql/prepared-run.ts, bounded both ways (as
 * many texts as Yoga's parser cache keeps, and their characters in all); older ones are dropped.
 */
const KEPT_TEXTS = 1_000;
const KEPT_CHARS = 8_000_000;

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

/** An operation graphql-jit compiled, with the document Yoga parsed and validated it from. */
export interface CompiledOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  compiled: CompiledQuery;
}

/**
 * The compiled form of each operation, from its second run on (a document sent once is
 * interpreted, since compiling costs more than one run: 8 ms against 3 for an introspection
 * query, so a stream of distinct documents cannot make the server compile). Yoga's parser cache
 * hands out one document per query text; the tiers are kept by its operations, and go with them.
 * Compiled ones are also found by their query text and operation name, as a plain POST names them.
 */
export class CompiledOperations {
  readonly #tiers = new WeakMap<OperationDefinitionNode, Tier>();
  /** Query text → operation name (null: the document's only one) → its compiled form. */
  readonly #byText = new LRUCache<string, Map<string | null, CompiledOperation>>({
    max: KEPT_TEXTS,
    maxSize: KEPT_CHARS,
    sizeCalculation: (_named, text) => Math.max(1, text.length),
  });

  /** The compiled form for this run of `operation`, or null while it is (or stays) interpreted. */
  compiledFor(operation: OperationDefinitionNode, args: ExecutionArgs): CompiledQuery | null {
    const compiled = this.#tierOf(operation, args);
    if (compiled) this.#keepByText(args, operation, compiled);
    return compiled;
  }

  #tierOf(operation: OperationDefinitionNode, args: ExecutionArgs): CompiledQuery | null {
    const tier = this.#tiers.get(operation) ?? { runs: 0 };
    if ('compiled' in tier) return tier.compiled;
    if (tier.runs + 1 < COMPILE_AT_RUN) {
      this.#tiers.set(operation, { runs: tier.runs + 1 });
      return null;
    }
    const result = compileQuery(args.schema, args.document, operation.name?.value, {
      disablingCapturingStackErrors: true,
    });
    const compiled = isCompiledQuery(result) ? result : null;
    this.#tiers.set(operation, { compiled });
    return compiled;
  }

  /** Each way a request named it (with or without its name) finds it. */
  #keepByText(args: ExecutionArgs, operation: OperationDefinitionNode, compiled: CompiledQuery) {
    const text = args.document.loc?.source.body;
    if (text === undefined) return;
    const named = this.#byText.get(text) ?? new Map<string | null, CompiledOperation>();
    const name = args.operationName ?? null;
    if (named.has(name)) return;
    named.set(name, { document: args.document, operation, compiled });
    this.#byText.set(text, named);
  }

  /** An operation already compiled from exactly this query text and operation name. */
  byText(query: string, operationName: string | null | undefined): CompiledOperation | undefined {
    return this.#byText.get(query)?.get(operationName ?? null);
  }
}

/** A compiled operation's run, its errors as graphql-js makes them (fromJit). */
export async function runCompiled(
  compiled: CompiledQuery,
  operation: OperationDefinitionNode,
  args: ExecutionArgs,
): Promise<ExecutionResult> {
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
}

/**
 * Operations that clients repeat run as functions graphql-jit compiles from them, once, at their
 * second run (CompiledOperations): a read costs about half the GraphQL work of interpreting it
 * (bench/items.ts). Anything graphql-jit cannot compile stays interpreted; subscriptions never
 * reach this hook.
 *
 * The interpreter is graphql-js's `execute` (a parameter only so the tests can count its runs),
 * not Yoga's own: that one puts each field in the order it resolved rather than the order asked
 * (the spec's, as jit does), so a first run and the compiled ones answered different bytes.
 * A variable jit refuses is refused in graphql-js's words, as on the first run (useInputErrorCodes
 * codes them INVALID_INPUT); accepted ones are coerced once, by jit.
 */
export function useCompiledExecution(
  operations: CompiledOperations,
  interpret: typeof execute = execute,
): Plugin {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn((args) => {
        // No such operation (or no name among several): the interpreter says so.
        const operation = getOperationAST(args.document, args.operationName);
        const compiled = operation && operations.compiledFor(operation, args);
        return operation && compiled ? runCompiled(compiled, operation, args) : interpret(args);
      });
    },
  };
}
