import type { Authenticator, Viewer } from './auth/authenticator.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { ChatCache } from './operations/chat/cache.js';
import type { ChatHub } from './operations/chat/live/chat-hub.js';
import type { SearchSlots } from './operations/chat/search-slots.js';
import type { KidlispPictures } from './operations/kidlisp/frame-renderer.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { ObjectStorage } from './storage/index.js';
import type { Telemetry } from './telemetry/telemetry.js';

/** What lives for the whole process, built once at start-up (src/service.ts). */
export interface Services {
  config: Config;
  db: Database;
  storage: ObjectStorage;
  auth: Authenticator;
  logger: Logger;
  publishLimiter: RateLimiter;
  metrics: Metrics;
  /** Traces (when an OTLP endpoint is set) and the metrics per operation. */
  telemetry: Telemetry;
  /** GET /api/chat-messages pages, kept 120 s (docs/contract.md, chat reading). */
  chatCache: ChatCache;
  /** Uncached chat searches running at once (CHAT_SEARCH_CONCURRENCY). */
  chatSearches: SearchSlots;
  /** Live chat: one source per channel, shared by every stream and subscription. */
  chatHub: ChatHub;
  /** Thumbnails and render_kidlisp's pictures: worker threads taking turns, each within its budget. */
  pictures: KidlispPictures;
}

/** What one request carries into an operation. */
export interface RequestContext {
  services: Services;
  viewer: Viewer | null;
  /** Who is asking, for rate limits: the account when there is one, else the client address. */
  clientKey: string;
  /**
   * One value per request for each factory (DataLoaders), made on first use, so nothing one
   * request loaded outlives it and a request that needs none builds none.
   */
  perRequest<T>(create: (services: Services) => T): T;
}

export interface RequestFacts {
  authorization: string | undefined;
  clientAddress: string | undefined;
}

export async function createRequestContext(
  services: Services,
  request: RequestFacts,
): Promise<RequestContext> {
  const viewer = await services.auth.viewerFor(request.authorization);
  const clientKey = viewer
    ? `account:${viewer.account}`
    : `address:${request.clientAddress ?? 'unknown'}`;
  const made = new Map<(services: Services) => unknown, unknown>();
  return {
    services,
    viewer,
    clientKey,
    perRequest<T>(create: (services: Services) => T): T {
      if (!made.has(create)) made.set(create, create(services));
      return made.get(create) as T;
    },
  };
}
