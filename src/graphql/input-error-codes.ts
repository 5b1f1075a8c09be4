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
