import { Router, type Request, type RequestHandler, type Response } from 'express';
import { apiInfo } from './api-info.js';
import type { Services } from '../context.js';
import { docsQuery } from '../http/routes/docs-routes.js';
import { openapiDocument } from './openapi.js';
import { apiDocsPage } from './api-docs-page.js';
import { pageSecurity } from '../http/html/page-security.js';
import { methodNotAllowed } from '../http/respond.js';

/** `?format=` wins; otherwise a client that prefers HTML (a browser) gets the page. */
function wantsHtml(req: Request): boolean {
  const query = docsQuery.safeParse(req.query);
  const format = query.success ? query.data.format : undefined;
  if (format) return format === 'html';
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

const DOCS_PATHS = ['/', '/docs', '/api-docs'];

/**
 * GET /api (and its aliases): the documentation object, or its HTML page. CORS comes from the
 * /api router's middleware.
 */
function docsHandler(services: Services): RequestHandler {
  const info = apiInfo({ services });
  const secure = pageSecurity(services.config);
  let page: string | undefined;
  return (req, res, next) => {
    res.vary('Accept');
    if (!wantsHtml(req)) {
      res.json(info);
      return;
    }
    page ??= apiDocsPage(info);
    const html = page;
    secure(req, res, (error?: unknown) => (error ? next(error) : res.type('html').send(html)));
  };
}

export function mountDocsRoutes(router: Router, services: Services): void {
  const docs = docsHandler(services);
  for (const path of DOCS_PATHS) {
    router.get(path, docs);
    router.all(path, methodNotAllowed(['GET']));
  }
  let openapi: unknown;
  router.get('/openapi.json', (_req: Request, res: Response) => {
    openapi ??= openapiDocument(services.config);
    res.json(openapi);
  });
  router.all('/openapi.json', methodNotAllowed(['GET']));
}

/** /api-docs.json: the documentation as JSON whatever the Accept header says (outside /api, so its own CORS header). */
export function createRootDocsRouter(services: Services): Router {
  const info = apiInfo({ services });
  const router = Router();
  router.get('/api-docs.json', (_req, res) => {
    res.vary('Accept').set('Access-Control-Allow-Origin', '*').json(info);
  });
  router.all('/api-docs.json', methodNotAllowed(['GET']));
  return router;
}
