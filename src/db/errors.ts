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

/** True when the database could not be reached (as opposed to refusing a command). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  return unavailableNames.has(error.name) || error.hasErrorLabel('ResetPool') || error.hasErrorLabel('RetryableWriteError');
}
