import { Router } from 'express';
import { AppError } from '../app-error.js';
import type { Services } from '../context.js';
import { apiCors } from '../http/cors.js';
import { jsonBody } from '../http/json-body.js';
import { methodNotAllowed, restErrorHandler, sendError } from '../http/respond.js';
import { expressPath, pathsOf, type RouteSpec, routeTable } from '../http/routes/index.js';
import { operationHandler } from './operation-handler.js';

const API_PREFIX = '/api';

/** The REST compatibility routes under /api, each mounted from its row of the route table. */
export function createRestRouter(services: Services): Router {
  const router = Router();
  router.use(apiCors());
  router.use(jsonBody());
  // A path may be served with several methods (GET and POST /api/store-kidlisp): rows are
  // grouped by path first, so a method none of them serves answers 405 naming all of them.
  const byPath = new Map<string, RouteSpec[]>();
  for (const route of routeTable(services.config.publicUrl)) {
    if (route.serve.face !== 'rest') continue;
    for (const path of pathsOf(route)) byPath.set(path, [...(byPath.get(path) ?? []), route]);
  }
  for (const [path, routes] of byPath) {
    const local = expressPath(path.slice(API_PREFIX.length));
    for (const route of routes)
      router[route.method === 'GET' ? 'get' : route.method === 'POST' ? 'post' : 'delete'](
        local,
        operationHandler(services, route),
      );
    router.all(local, methodNotAllowed(routes.map((route) => route.method).sort()));
  }
  router.use((req, res) => {
    sendError(res, new AppError('NOT_FOUND', `There is no route ${req.method} /api${req.path}.`));
  });
  router.use(restErrorHandler(services));
  return router;
}
