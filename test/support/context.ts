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
