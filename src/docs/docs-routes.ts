import { type Request, type RequestHandler, Router } from 'express';
import type { Services } from '../context.js';
import { apiCors } from '../http/cors.js';
import { pageSecurity } from '../http/html/page-security.js';
import { methodNotAllowed } from '../http/respond.js';
import { docsQuery } from '../http/routes/docs-routes.js';
import { pathsOf, routeTable } from '../http/routes/index.js';
import { apiDocsPage } from './api-docs-page.js';
import { apiInfo } from './api-info.js';
import { openapiDocument } from './openapi.js';

/** A `.json` path is always JSON; otherwise `?format=` wins, then a client that prefers HTML gets the page. */
function wantsHtml(req: Request): boolean {
  if (req.path.endsWith('.json')) return false;
  const query = docsQuery.safeParse(req.query);
  const format = query.success ? query.data.format : undefined;
  if (format) return format === 'html';
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** GET /api (and its aliases): the documentation object, or its HTML page. */
function apiInfoHandler(services: Services): RequestHandler {
  const info = apiInfo(services.config);
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

function openapiHandler(services: Services): RequestHandler {
  let openapi: unknown;
  return (_req, res) => {
    openapi ??= openapiDocument(services.config);
    res.json(openapi);
  };
}

/** The docs rows of the route table, each path with the /api CORS policy. Mount before the REST router. */
export function createDocsRouter(services: Services): Router {
  const router = Router();
  const cors = apiCors();
  const handlers = { 'api-info': apiInfoHandler(services), openapi: openapiHandler(services) };
  for (const route of routeTable(services.config.publicUrl)) {
    if (route.serve.face !== 'docs') continue;
    for (const path of pathsOf(route)) {
      router.options(path, cors);
      router.get(path, cors, handlers[route.serve.document]);
      router.all(path, cors, methodNotAllowed([route.method]));
    }
  }
  return router;
}
