import { MongoError, MongoServerError } from 'mongodb';

/** True for a unique-index violation, optionally on a given field. */
export function isDuplicateKey(error: unknown, field?: string): boolean {
  if (!(error instanceof MongoServerError) || error.code !== 11000) return false;
  if (field === undefined) return true;
  const pattern = (error.keyPattern ?? error.keyValue ?? {}) as Record<string, unknown>;
  return field in pattern;
}

const unavailableNames = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoOperationTimeoutError',
]);

/**
 * Socket failures the driver (mongodb 7.9) can let through unwrapped: a write on a pooled
 * connection the server has just closed rejects with Node's own EPIPE error, not a MongoNetworkError.
 */
const socketErrorCodes = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

/** True when the database could not be reached (as opposed to refusing a command). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof MongoError)) {
    return (
      error instanceof Error && socketErrorCodes.has(String((error as NodeJS.ErrnoException).code))
    );
  }
  return (
    unavailableNames.has(error.name) ||
    error.hasErrorLabel('ResetPool') ||
    error.hasErrorLabel('RetryableWriteError')
  );
}

/** True when the server stopped a query at its time limit (maxTimeMS). */
export const isQueryTimeout = (error: unknown): boolean =>
  error instanceof MongoServerError && error.code === 50;
