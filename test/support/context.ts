import { type AppError, isAppError } from '../../src/app-error.js';
import type { Services } from '../../src/context.js';
import { createRequestContext, type RequestContext } from '../../src/context.js';

let clients = 0;

/**
 * A request context over real services, as a face builds one, without HTTP. Each context is a
 * client of its own (its own address) unless `clientAddress` names one; `authorization` is a
 * bearer header, resolved by the services' real authenticator.
 */
export function testContext(
  services: Services,
  request: { authorization?: string; clientAddress?: string } = {},
): Promise<RequestContext> {
  return createRequestContext(services, {
    authorization: request.authorization,
    clientAddress: request.clientAddress ?? `192.0.2.${++clients % 250}:${clients}`,
  });
}

/** Awaits an operation that must fail, and returns its typed error (code, message, details). */
export async function appErrorOf(pending: Promise<unknown>): Promise<AppError> {
  const outcome = await pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected an AppError, got ${JSON.stringify(outcome.value)}`);
  if (!isAppError(outcome.error)) throw outcome.error;
  return outcome.error;
}
