import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { Services } from '../../context.js';
import { routeTable } from '../../http/routes/index.js';
import { createRouteLabeler } from '../../metrics.js';
import { createSharedCache } from '../../operations/chat/cache.js';
import { worksVersion } from '../../operations/items/works-version.js';

/**
 * How long a rendered listing is reused. A publish in this process makes a new one at once
 * (works-version.ts); chat messages and works stored by other processes show within this time.
 */
export const LISTING_TTL_MS = 5_000;

/** The query parameters a listing reads; any other makes no other listing. */
const LISTING_PARAMS = ['sort', 'after', 'before', 'search', 'cursor'] as const;
type ListingParam = (typeof LISTING_PARAMS)[number];

/** A rendered page or feed, and the headers express sent it with (for replays). */
export interface Listing {
  body: Buffer;
  etag: string;
  lastModified: Date | null;
  /** 200, or 400 for a page that says why it did not search (a term too long). */
  status: number;
  headers?: OutgoingHttpHeaders;
}

/** What a listing's render gives: the text, and its status and time when they are not 200 and none. */
export interface ListingBody {
  body: string;
  lastModified?: Date;
  status?: number;
}

export interface ListingCache {
  /** The listing of `path` with these parameters, rendered by `render` when it is not kept. */
  read(
    path: string,
    param: (name: ListingParam) => string | undefined,
    render: () => Promise<ListingBody>,
  ): Promise<Listing>;
  /** Sends a listing with its headers through express, and keeps what was sent for replays. */
  send(res: Response, type: string, listing: Listing): void;
  /**
   * Answers a plain GET of a kept listing before express, with the bytes and headers express
   * sent; false for anything express must see (a conditional request, a listing not kept).
   */
  replay(req: IncomingMessage, res: ServerResponse): boolean;
}

/** The listings of the route table's `page` rows (home, author pages, feeds), kept LISTING_TTL_MS. */
export function createListingCache(services: Services): ListingCache {
  const listings = createSharedCache<Listing>({ max: 500, ttlMs: LISTING_TTL_MS });
  const pagePaths = routeTable('')
    .filter((route) => route.serve.face === 'page')
    .map((route) => route.path);
  const routeOf = createRouteLabeler(pagePaths);
  const keyOf = (path: string, param: (name: ListingParam) => string | undefined) =>
    `${worksVersion(services)} ${path} ${LISTING_PARAMS.map((name) => param(name) ?? '').join(' ')}`;
  return {
    read(path, param, render) {
      return listings.read(keyOf(path, param), async () => {
        const { body, lastModified, status } = await render();
        const bytes = Buffer.from(body, 'utf8');
        return {
          body: bytes,
          etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
          lastModified: lastModified ?? null,
          status: status ?? 200,
        };
      });
    },
    send(res, type, listing) {
      res
        .status(listing.status)
        .type(type)
        .set({ ETag: listing.etag, 'Cache-Control': 'no-cache' });
      if (listing.lastModified) res.set('Last-Modified', listing.lastModified.toUTCString());
      listing.headers ??= { ...res.getHeaders(), 'content-length': listing.body.length };
      // express answers 304 when If-None-Match (or If-Modified-Since) still holds.
      res.send(listing.body);
    },
    replay(req, res) {
      if (req.method !== 'GET' || req.headers['if-none-match'] || req.headers['if-modified-since'])
        return false;
      const url = req.url ?? '/';
      const mark = url.indexOf('?');
      const path = mark === -1 ? url : url.slice(0, mark);
      if (!pagePaths.includes(routeOf(path))) return false;
      const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
      // A repeated parameter is express's to judge (it reads it as a list).
      if (LISTING_PARAMS.some((name) => query.getAll(name).length > 1)) return false;
      const listing = listings.peek(keyOf(path, (name) => query.get(name) ?? undefined));
      if (!listing?.headers) return false;
      res.writeHead(listing.status, listing.headers).end(listing.body);
      return true;
    },
  };
}
