import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { noneMatchHolds } from '../http/conditional.js';

/** A rendered viewer page or raw file, with its strong ETag; `headers` is what express sent with it. */
export interface View {
  body: Buffer;
  etag: string;
  headers?: OutgoingHttpHeaders;
}

/** All views together stay under this many bytes; one larger than MAX_VIEW_BYTES is not kept. */
export const VIEW_CACHE_BYTES = 64 * 2 ** 20;
export const MAX_VIEW_BYTES = 8 * 2 ** 20;
/** Paths remembered for replay, and for how long (a record deleted by hand stops showing after that). */
const PATHS = 20_000;
const PATH_TTL_MS = 10 * 60_000;

/**
 * Rendered views keyed by what they show (kind, code and the item's source hash), so a repeated
 * view costs no validation, rendering or hashing; and the request paths that led to each, so a
 * repeated GET is answered before express and without a database read (`replay`).
 */
export interface ViewCache {
  /** The view stored under `key`, or `render`'s output, stored under it now. */
  view(key: string, render: () => string | Buffer): View;
  /** `path` (the raw request path) shows the view stored under `key`. */
  remember(path: string, key: string): void;
  /** Answers a GET of a remembered path (304 when its ETag matches); false when express must. */
  replay(req: IncomingMessage, res: ServerResponse): boolean;
  /** Drops every view whose key starts with `prefix`: their paths go to express again. */
  forget(prefix: string): void;
}

export function createViewCache(): ViewCache {
  const views = new LRUCache<string, View>({
    maxSize: VIEW_CACHE_BYTES,
    maxEntrySize: MAX_VIEW_BYTES,
    sizeCalculation: (view) => view.body.length + 1_024,
  });
  const paths = new LRUCache<string, string>({ max: PATHS, ttl: PATH_TTL_MS });
  return {
    view(key, render) {
      const cached = views.get(key);
      if (cached) return cached;
      const rendered = render();
      const body = typeof rendered === 'string' ? Buffer.from(rendered, 'utf8') : rendered;
      const view = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
      views.set(key, view);
      return view;
    },
    remember(path, key) {
      paths.set(path, key);
    },
    forget(prefix) {
      for (const key of [...views.keys()]) if (key.startsWith(prefix)) views.delete(key);
    },
    replay(req, res) {
      if (req.method !== 'GET' || req.url === undefined) return false;
      const key = paths.get(req.url);
      const view = key === undefined ? undefined : views.get(key);
      if (!view?.headers) return false;
      if (noneMatchHolds(req.headers['if-none-match'], view.etag)) {
        const { 'content-length': _length, 'content-type': _type, ...rest } = view.headers;
        res.writeHead(304, rest).end();
      } else {
        res.writeHead(200, view.headers).end(view.body);
      }
      return true;
    },
  };
}
