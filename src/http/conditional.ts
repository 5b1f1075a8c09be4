import type { IncomingHttpHeaders, OutgoingHttpHeader } from 'node:http';
import type { Express } from 'express';

/** An entity tag's opaque part: `W/"x"` and `"x"` compare equal under weak comparison. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether `If-None-Match` (`*` or a list of tags) names `etag`, compared weakly (RFC 9110, 13.1.2). */
export function noneMatchHolds(header: string | undefined, etag: string | undefined): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  if (!etag) return false;
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}

const headerText = (value: OutgoingHttpHeader | undefined) =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : undefined;

/**
 * Whether a GET or HEAD may be answered 304 (RFC 9110, 13.2.2): `If-None-Match` when the
 * request has one, else `If-Modified-Since` against `Last-Modified`. The request's
 * `Cache-Control` plays no part: it speaks to caches, not to the origin (Node's fetch sends
 * `no-cache` with every conditional request).
 */
export function isFresh(
  request: IncomingHttpHeaders,
  response: { etag?: OutgoingHttpHeader | undefined; 'last-modified'?: OutgoingHttpHeader },
): boolean {
  const noneMatch = request['if-none-match'];
  if (noneMatch) return noneMatchHolds(noneMatch, headerText(response.etag));
  const since = Date.parse(request['if-modified-since'] ?? '');
  const modified = Date.parse(headerText(response['last-modified']) ?? '');
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

/** express's `req.fresh` (what `res.send` answers 304 by) judged by isFresh, for every route of `app`. */
export function answerConditionalRequests(app: Express): void {
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Express['request']) {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const status = this.res?.statusCode ?? 200;
      if ((status < 200 || status >= 300) && status !== 304) return false;
      const headers = this.res?.getHeaders() ?? {};
      return isFresh(this.headers, headers);
    },
  });
}
