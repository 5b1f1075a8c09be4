import type { Authenticator, Viewer } from './auth/authenticator.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { Metrics } from './http/metrics.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { ObjectStorage } from './storage/index.js';
import type { ChatCache } from './operations/chat/list-chat-messages.js';
import { createChatLoaders, type ChatLoaders } from './operations/chat/loaders.js';

/** What lives for the whole process, built once at start-up. */
export interface Services {
  config: Config;
  db: Database;
  storage: ObjectStorage;
  auth: Authenticator;
  logger: Logger;
  publishLimiter: RateLimiter;
  metrics: Metrics;
  /** GET /api/chat-messages pages, kept 120 s (service-api 4.3). */
  chatCache: ChatCache;
}

/** What one request carries into an operation. */
export interface RequestContext {
  services: Services;
  viewer: Viewer | null;
  /** Who is asking, for rate limits: the account when there is one, else the client address. */
  clientKey: string;
  /** Per request, so nothing one request loaded outlives it. */
  loaders: ChatLoaders;
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
  return { services, viewer, clientKey, loaders: createChatLoaders(services.db) };
}
