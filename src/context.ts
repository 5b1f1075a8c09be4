import type { IncomingMessage } from 'node:http';
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
import {
  type RequestTrace,
  requestScope,
  spanIdsOf,
  type TraceScope,
  traceOfRequest,
} from './telemetry/active-span.js';
import type { OperationUnit, Telemetry } from './telemetry/telemetry.js';

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
   * Only in a traced request's services: the span they are seen from (servicesIn), whose `db`
   * and `logger` make that span's commands and log lines its own.
   */
  trace?: TraceScope;
}

/** One span's services: its own fields; every other is read from the process's. */
interface ScopedServices extends Services {
  trace: TraceScope;
  /** The process's services these are made from. */
  shared: Services;
  scopedDb: Database | undefined;
  scopedLogger: Logger | undefined;
}

/**
 * The process's services behind a traced request's: the key for anything kept per process and
 * services (perProcess).
 */
const sharedServices = (services: Services): Services =>
  (services as Partial<ScopedServices>).shared ?? services;

/**
 * A value kept once per process's services (a memo, a limiter, listeners), made on first use:
 * a traced request's services, seen from any of its spans, find the same one.
 */
export function perProcess<T>(create: (services: Services) => T): (services: Services) => T {
  const made = new WeakMap<Services, T>();
  return (scoped) => {
    const services = sharedServices(scoped);
    let value = made.get(services);
    if (value === undefined) {
      value = create(services);
      made.set(services, value);
    }
    return value;
  };
}

const scopedPrototypes = new WeakMap<Services, Services>();

/**
 * What the scopes of one process's services share: every field read through to `shared`,
 * except `db` and `logger`, which are each scope's own, made on first use.
 */
function scopedPrototypeOf(shared: Services): Services {
  let prototype = scopedPrototypes.get(shared);
  if (prototype) return prototype;
  prototype = Object.create(shared, {
    shared: { value: shared },
    db: {
      get(this: ScopedServices) {
        this.scopedDb ??= shared.db.seenFrom(this.trace);
        return this.scopedDb;
      },
    },
    logger: {
      get(this: ScopedServices) {
        this.scopedLogger ??= shared.logger.child(spanIdsOf(this.trace.span));
        return this.scopedLogger;
      },
    },
  }) as Services;
  scopedPrototypes.set(shared, prototype);
  return prototype;
}

/**
 * The services as one span of a traced request sees them: `trace` is that span, `db` sends its
 * commands so they become the span's children (src/db/traced-database.ts), `logger` writes its
 * trace_id and span_id. A small object per span: the rest is the process's own.
 */
function servicesIn(scope: TraceScope, shared: Services): Services {
  const services = Object.create(scopedPrototypeOf(shared)) as ScopedServices;
  services.trace = scope;
  services.scopedDb = undefined;
  services.scopedLogger = undefined;
  return services;
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

type Made = Map<(services: Services) => unknown, unknown>;

/** Where a request's context keeps its made values, shared by the contexts of its spans (withinScope). */
const MADE = Symbol('made per request');

interface ContextWithMade extends RequestContext {
  [MADE]: Made;
}

function perRequestFor(made: Made, services: Services): RequestContext['perRequest'] {
  return <T>(create: (services: Services) => T): T => {
    if (!made.has(create)) made.set(create, create(services));
    return made.get(create) as T;
  };
}

/** The same request seen from `scope`, one of its spans: the services are that span's. */
export function withinScope<C extends RequestContext>(ctx: C, scope: TraceScope): C {
  const made = (ctx as Partial<ContextWithMade>)[MADE];
  if (!made) throw new Error('a request context not made by createRequestContext');
  const services = servicesIn(scope, sharedServices(ctx.services));
  return { ...ctx, services, perRequest: perRequestFor(made, services) };
}

/**
 * Runs `work` as one operation of the telemetry (its span and metrics): a traced request's
 * `work` is given the context of the operation's span.
 */
export const observeIn = <T, C extends RequestContext>(
  ctx: C,
  unit: OperationUnit,
  work: (ctx: C) => Promise<T>,
  failure?: (result: T) => string | undefined,
): Promise<T> =>
  ctx.services.telemetry.observe(
    unit,
    ctx.services.trace,
    (scope) => work(scope && scope !== ctx.services.trace ? withinScope(ctx, scope) : ctx),
    failure,
  );

/** The services a request sees before it has a context (an error handler's): its trace's, when traced. */
export const servicesOfRequest = (shared: Services, req: IncomingMessage): Services =>
  servicesOfTrace(shared, traceOfRequest(req));

const servicesOfTrace = (shared: Services, trace: RequestTrace | undefined): Services =>
  trace ? servicesIn(requestScope(trace), sharedServices(shared)) : shared;

export async function createRequestContext(
  shared: Services,
  request: RequestFacts,
): Promise<RequestContext> {
  const services = servicesOfTrace(shared, request.trace);
  const viewer = await viewerOf(services, request);
  const clientKey = viewer
    ? `account:${viewer.account}`
    : `address:${request.clientAddress ?? 'unknown'}`;
  const made: Made = new Map();
  const ctx: ContextWithMade = {
    services,
    viewer,
    clientKey,
    perRequest: perRequestFor(made, services),
    [MADE]: made,
  };
  return ctx;
}
