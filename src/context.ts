import { AppError } from './app-error.js';
import type { Authenticator, Viewer } from './auth/authenticator.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { ChatCache } from './operations/chat/cache.js';
import type { ChatHub } from './operations/chat/live/chat-hub.js';
import type { SearchSlots } from './operations/chat/search-slots.js';
import type { EventsRuntime } from './operations/events/events-runtime.js';
import type { KidlispPictures } from './operations/kidlisp/frame-renderer.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { ObjectStorage } from './storage/index.js';
import { type RequestTrace, requestScope, type TraceScope } from './telemetry/active-span.js';
import { servicesIn } from './telemetry/scoped-services.js';
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
  /** Events out: the works stream, webhook deliveries and the sweeper (src/operations/events). */
  events: EventsRuntime;
  /** Thumbnails and render_kidlisp's pictures: worker threads taking turns, each within its budget. */
  pictures: KidlispPictures;
  /**
   * Only in a traced request's services: the span they are seen from (src/telemetry/scoped-services.ts),
   * whose `db` and `logger` make that span's commands and log lines its own.
   */
  trace?: TraceScope;
}

/**
 * The process's services behind a traced request's (src/telemetry/scoped-services.ts): the key
 * for anything kept per process and services (a WeakMap of listeners, memos, limiters).
 */
export const sharedServices = (services: Services): Services => services.trace?.root ?? services;

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
  /** The resource the request is for, when a JWT must name it as its audience (/mcp). */
  resource?: string;
  /** The site's sign-in cookie, when the request carries one (src/http/request-facts.ts). */
  session?: SessionFacts;
  /** The request's trace, when it is traced (src/telemetry/telemetry.ts). */
  trace?: RequestTrace | undefined;
}

export interface SessionFacts {
  token: string;
  /** The request may change something (not GET or HEAD). */
  unsafe: boolean;
  /** The browser says it comes from the site's own pages (Origin or Sec-Fetch-Site). */
  sameOrigin: boolean;
}

/**
 * Who a request acts for: its bearer token when it sends one, else the site's sign-in cookie. A
 * cookie is ambient (a browser sends it with a form another site posts), so a request that could
 * change something acts as the member only when it comes from the site's own pages: otherwise 403
 * ORIGIN_NOT_ALLOWED, and nothing is written. An ended sign-in is anonymous for reads, 401 for writes.
 */
async function viewerOf(services: Services, request: RequestFacts): Promise<Viewer | null> {
  const { session } = request;
  if (request.authorization !== undefined || !session)
    return services.auth.viewerFor(
      request.authorization,
      request.resource ? { resource: request.resource } : {},
    );
  if (session.unsafe && !session.sameOrigin)
    throw new AppError(
      'ORIGIN_NOT_ALLOWED',
      'A signed-in request from another site is refused: act from this site\u2019s own pages.',
    );
  const viewer = await services.auth.viewerForSession(session.token);
  if (!viewer && session.unsafe)
    throw new AppError('UNAUTHENTICATED', 'Your sign-in has ended: sign in again.');
  return viewer;
}

/** Each request's made values, by its contexts' `perRequest`: shared by the contexts of its spans. */
const madeBy = new WeakMap<object, Map<(services: Services) => unknown, unknown>>();

function perRequestFor(
  made: Map<(services: Services) => unknown, unknown>,
  services: Services,
): RequestContext['perRequest'] {
  const perRequest = <T>(create: (services: Services) => T): T => {
    if (!made.has(create)) made.set(create, create(services));
    return made.get(create) as T;
  };
  // Only a traced request is seen from its spans (contextIn): an untraced one keeps nothing here.
  if (services.trace) madeBy.set(perRequest, made);
  return perRequest;
}

/** The same request seen from one of its spans: `services` are that span's (src/telemetry/scoped-services.ts). */
export function contextIn<C extends RequestContext>(ctx: C, services: Services): C {
  const made = madeBy.get(ctx.perRequest);
  if (!made) throw new Error('a request context not made by createRequestContext');
  return { ...ctx, services, perRequest: perRequestFor(made, services) };
}

export async function createRequestContext(
  shared: Services,
  request: RequestFacts,
): Promise<RequestContext> {
  const services = request.trace ? servicesIn(requestScope(request.trace, shared)) : shared;
  const viewer = await viewerOf(services, request);
  const clientKey = viewer
    ? `account:${viewer.account}`
    : `address:${request.clientAddress ?? 'unknown'}`;
  return {
    services,
    viewer,
    clientKey,
    perRequest: perRequestFor(new Map(), services),
  };
}
