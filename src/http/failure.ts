import { AppError, isAppError } from '../app-error.js';
import { isDatabaseUnavailable, isQueryTimeout } from '../db/failure-kinds.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';

/**
 * Every failure, expected or not, as the contract's typed error. Unexpected ones are logged
 * here with their stack and reach the client only as INTERNAL.
 */
export function toAppError(
  error: unknown,
  { logger, metrics }: { logger: Logger; metrics: Metrics },
): AppError {
  if (isAppError(error)) return error;
  if (isDatabaseUnavailable(error)) {
    metrics.databaseErrors.inc();
    logger.warn({ err: error }, 'database unavailable');
    return new AppError(
      'DB_UNAVAILABLE',
      'The database is temporarily unavailable; please retry shortly.',
    );
  }
  if (isQueryTimeout(error)) {
    logger.warn({ err: error }, 'query time limit reached');
    return new AppError('TIMEOUT', 'The query took too long; please retry, or narrow it.');
  }
  logger.error({ err: error }, 'unexpected error');
  return new AppError('INTERNAL', 'Something went wrong on our side.');
}
