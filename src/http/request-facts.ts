import type { IncomingMessage } from 'node:http';
import { cookieOf, SESSION_COOKIE } from '../auth/site-cookies.js';
import type { RequestFacts, Services } from '../context.js';
import { traceOfRequest } from '../telemetry/active-span.js';
import { clientAddressOf } from './client-address.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser says the request comes from the site's own pages (the one defence against
 * cross-site request forgery, for every form and every signed-in write): a browser that sends
 * `Sec-Fetch-Site` must say `same-origin`; one that does not must send an `Origin` equal to
 * PUBLIC_URL's origin or to the origin the request was made to. A form the pages post has
 * `Origin: null` (their Referrer-Policy is no-referrer), so Origin alone would not do. A request
 * with neither header came from no page of this site, and is not.
 */
export function fromOwnPages(req: IncomingMessage, publicUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return origin === new URL(publicUrl).origin || origin === `${scheme}://${req.headers.host ?? ''}`;
}

/**
 * What a request tells about who sends it: its bearer token, its client address and the site's
 * sign-in cookie. A page that acts for the signed-in member (the editor's POST) builds its context
 * from these: `createRequestContext(services, requestFactsOf(req, services))`.
 */
export function requestFactsOf(req: IncomingMessage, services: Services): RequestFacts {
  const token = cookieOf(req, SESSION_COOKIE);
  return {
    authorization: req.headers.authorization,
    clientAddress: clientAddressOf(req, services.config.trustProxy),
    trace: traceOfRequest(req),
    ...(token
      ? {
          session: {
            token,
            unsafe: !SAFE_METHODS.has(req.method ?? 'GET'),
            sameOrigin: fromOwnPages(req, services.config.publicUrl),
          },
        }
      : {}),
  };
}
