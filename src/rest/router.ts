import { Router } from 'express';
import { AppError } from '../app-error.js';
import type { Services } from '../context.js';
import { apiCors } from '../http/cors.js';
import { jsonBody } from '../http/json-body.js';
import { methodNotAllowed, restErrorHandler, sendError } from '../http/respond.js';
import { pathsOf, routeTable } from '../http/routes/index.js';
import { operationHandler } from './operation-handler.js';

const API_PREFIX = '/api';

/** The REST compatibility routes under /api, each mounted from its row of the route table. */
export function createRestRouter(services: Services): Router {
  const router = Router();
  router.use(apiCors());
  router.use(jsonBody());
  for (const route of routeTable(services.config.publicUrl)) {
    if (route.serve.face !== 'rest') continue;
    const handler = operationHandler(services, route);
    for (const path of pathsOf(route)) {
      const local = path.slice(API_PREFIX.length);
      router[route.method === 'GET' ? 'get' : 'post'](local, handler);
      router.all(local, methodNotAllowed([route.method]));
    }
  }
  router.use((req, res) => {
    sendError(res, new AppError('NOT_FOUND', `There is no route ${req.method} /api${req.path}.`));
  });
  router.use(restErrorHandler(services));
  return router;
}
