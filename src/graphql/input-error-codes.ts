import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Errors that graphql itself finds before any resolver runs (syntax, unknown fields, variables
 * of the wrong type) get the contract's INVALID_INPUT code, so every GraphQL error carries one.
 * Parse and validation errors never reach Yoga's error masking, so this plugin codes them.
 */
export function withInputCode(error: GraphQLError): GraphQLError {
  return error.extensions.code
    ? error
    : new GraphQLError(error.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        extensions: { ...error.extensions, code: 'INVALID_INPUT' },
      });
}

export function useInputErrorCodes(): Plugin {
  return {
    onParse:
      () =>
      ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withInputCode(result));
      },
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length > 0)
          setResult(
            result.map((error) => (error instanceof GraphQLError ? withInputCode(error) : error)),
          );
      },
  };
}

/** The contract's code for an error Yoga raises about the request itself (`BAD_REQUEST` and kin). */
function requestErrorCode(error: {
  message: string;
  extensions: Record<string, unknown>;
}): string | undefined {
  const code = error.extensions.code;
  if (code !== 'BAD_REQUEST' && code !== 'OPERATION_RESOLUTION_FAILURE') return undefined;
  const status = (error.extensions.http as { status?: number } | undefined)?.status;
  if (status === 405)
    return error.message.includes('mutation') ? 'MUTATION_REQUIRES_POST' : 'METHOD_NOT_ALLOWED';
  if (status === 413) return 'BATCH_TOO_LARGE';
  return 'INVALID_INPUT';
}

/** Duck-typed: Yoga's own errors may come from the CommonJS build of graphql, another class. */
const isGraphqlErrorLike = (
  error: unknown,
): error is { message: string; extensions: Record<string, unknown> } =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { message?: unknown }).message === 'string' &&
  typeof (error as { extensions?: unknown }).extensions === 'object';

function withRequestCode(error: unknown): unknown {
  if (!isGraphqlErrorLike(error)) return error;
  const code = requestErrorCode(error);
  return code
    ? new GraphQLError(error.message, { extensions: { ...error.extensions, code } })
    : error;
}

/**
 * Requests Yoga refuses before running anything (a mutation over GET, a method it does not
 * serve, a batch over the limit, a request without a query) carry Yoga's own `BAD_REQUEST`;
 * this gives each the contract's code, so a refusal never looks like a user's syntax error.
 */
export function useRequestErrorCodes(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Symbol.asyncIterator in result) return;
      const recode = (one: (typeof results)[number]) =>
        one.errors ? { ...one, errors: one.errors.map(withRequestCode) as GraphQLError[] } : one;
      const results = Array.isArray(result) ? result : [result];
      setResult(Array.isArray(result) ? results.map(recode) : recode(results[0] as never));
    },
  };
}
