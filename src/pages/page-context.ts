import type { Request } from 'express';
import { createRequestContext, type Services } from '../context.js';
import { clientAddressOf } from '../http/client-address.js';
import { traceOfRequest } from '../telemetry/active-span.js';

/** Pages are public: a token is neither needed nor checked; the client address keys hits and limits. */
export const pageContext = (services: Services, req: Request) =>
  createRequestContext(services, {
    authorization: undefined,
    clientAddress: clientAddressOf(req, services.config.trustProxy),
    trace: traceOfRequest(req),
  });
