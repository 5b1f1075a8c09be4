import type { Authenticator, Viewer } from '../auth/authenticator.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { ObjectStorage } from '../storage/index.js';

/** What lives for the whole process, built once at start-up. */
export interface Services {
  config: Config;
  db: Database;
  storage: ObjectStorage;
  auth: Authenticator;
  logger: Logger;
}

/** What one request carries into an operation. */
export interface RequestContext {
  services: Services;
  viewer: Viewer | null;
}

export interface RequestFacts {
  authorization: string | undefined;
}

export async function createRequestContext(services: Services, request: RequestFacts): Promise<RequestContext> {
  const viewer = await services.auth.viewerFor(request.authorization);
  return { services, viewer };
}
