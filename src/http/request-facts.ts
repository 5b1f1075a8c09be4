import type { IncomingMessage } from 'node:http';
import { cookieOf, SESSION_COOKIE } from '../auth/site-cookies.js';
import type { RequestFacts, Services } from '../context.js';
import { clientAddressOf } from './client-address.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser says the request comes from the site's own pages: Sec-Fetch-Site says
 * same-origin, or, from a browser that sends no Sec-Fetch-Site, its Origin is PUBLIC_URL's. A form
 * the pages post has `Origin: null` (their Referrer-Policy is no-referrer), so Origin alone would
 * not do. Anything else (another site, a client that says nothing) is not.
 */
export function fromOwnPages(req: IncomingMessage, publicUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  return req.headers.origin === new URL(publicUrl).origin;
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
