import type { IncomingMessage } from 'node:http';
import type { RequestFacts, Services } from '../context.js';
import { clientAddressOf } from './client-address.js';

/** What a request tells about who sends it: its bearer token and its client address. */
export function requestFactsOf(req: IncomingMessage, services: Services): RequestFacts {
  return {
    authorization: req.headers.authorization,
    clientAddress: clientAddressOf(req, services.config.trustProxy),
  };
}
