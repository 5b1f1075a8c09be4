import { type RequestHandler, Router } from 'express';
import { PROTECTED_RESOURCE_PATH, protectedResource } from '../auth/protected-resource.js';
import type { Services } from '../context.js';
import { MCP_CORS } from './origin-guard.js';

/**
 * `GET /.well-known/oauth-protected-resource` and `.../mcp` (RFC 9728): public metadata, read by
 * MCP clients from any origin. Without AUTH_ISSUER nothing is mounted (the 404 page answers).
 */
export function protectedResourceRouter(services: Services): Router {
  const router = Router();
  const resource = protectedResource(services.config);
  if (!resource) return router;
  const answer: RequestHandler = (_req, res) => {
    res
      .set({
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': MCP_CORS.exposedHeaders,
        'Cache-Control': 'public, max-age=3600',
      })
      .json(resource.metadata);
  };
  router.get([PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/mcp`], answer);
  return router;
}
