import { type ExecutionResult, GraphQLError } from 'graphql';
import { type AppError, errorHeaders, isAppError } from '../app-error.js';
import type { Services } from '../context.js';
import { payloadTooLarge } from '../http/body-limit.js';
import { toAppError } from '../http/failure.js';
import { withInputCode } from './input-error-codes.js';

function originalOf(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

/** Where in the document and the result an error belongs, for the error that replaces it. */
const placeOf = ({ nodes, source, positions, path }: GraphQLError) => ({
  nodes,
  source,
  positions,
  path,
});

/**
 * A bad token keeps its 401 (as on REST), and a live chat subscription refused for its limits
 * its 429 or 503, since no stream starts; other errors ride in a 200 with their headers.
 */
const keepsStatus = (error: AppError) =>
  error.code === 'UNAUTHENTICATED' ||
  error.code === 'TOO_MANY_STREAMS' ||
  error.code === 'SUBSCRIBERS_FULL';

/** Contract errors keep their machine code in `extensions.code`; anything else is masked as INTERNAL. */
export function toGraphQLError(error: unknown, services: Services): GraphQLError {
  const original = originalOf(error);
  if (original instanceof GraphQLError) {
    // Yoga's own body limit speaks the contract's code (still with its 413).
    if (original.extensions.code === 'REQUEST_ENTITY_TOO_LARGE') {
      const tooLarge = payloadTooLarge();
      return new GraphQLError(tooLarge.message, {
        extensions: { ...original.extensions, code: tooLarge.code, ...tooLarge.details },
      });
    }
    return withInputCode(error instanceof GraphQLError ? error : original); // e.g. a variable of the wrong type
  }
  const appError = toAppError(original, services);
  const headers = errorHeaders(appError);
  return new GraphQLError(appError.message, {
    ...(error instanceof GraphQLError ? placeOf(error) : {}),
    extensions: {
      code: appError.code,
      ...appError.details,
      ...(Object.keys(headers).length > 0
        ? { http: { ...(keepsStatus(appError) ? { status: appError.status } : {}), headers } }
        : {}),
    },
  });
}

/** A resolver's error that is no contract error yet: one thrown by code, not by an operation. */
const isUnexpected = (error: GraphQLError) => {
  const original = originalOf(error);
  return original !== error && !isAppError(original) && !(original instanceof GraphQLError);
};

/**
 * The result with each unexpected resolver error turned into its contract error (INTERNAL,
 * DB_UNAVAILABLE, TIMEOUT) through `services`, the operation's own: the line that logs it carries
 * the operation's trace and span ids. Masking it afterwards (toGraphQLError) logs nothing again.
 */
export function withContractErrors<T>(result: T, services: Services): T {
  const { errors } = result as ExecutionResult;
  if (!errors?.some(isUnexpected)) return result;
  return {
    ...result,
    errors: errors.map((error) =>
      isUnexpected(error)
        ? new GraphQLError(error.message, {
            ...placeOf(error),
            originalError: toAppError(originalOf(error), services),
          })
        : error,
    ),
  };
}
