import cors from 'cors';
import { Router } from 'express';
import { AppError } from '../errors.js';
import type { Services } from '../context.js';
import { jsonBody } from '../http/json-body.js';
import { mountChatRoutes } from './chat-routes.js';
import { mountDocsRoutes } from '../docs/docs-routes.js';
import { mountPublishRoutes } from './publish-routes.js';
import { restErrorHandler, sendError } from '../http/respond.js';

/** The REST compatibility routes under /api. */
export function createRestRouter(services: Services): Router {
  const router = Router();
  router.use(
    cors({
      origin: '*',
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['Content-Type', 'Authorization'],
      maxAge: 86_400,
      optionsSuccessStatus: 204,
    }),
  );
  router.use(jsonBody());
  mountPublishRoutes(router, services);
  mountChatRoutes(router, services);
  mountDocsRoutes(router, services);
  router.use((req, res) => {
    sendError(res, new AppError('NOT_FOUND', `There is no route ${req.method} /api${req.path}.`));
  });
  router.use(restErrorHandler(services));
  return router;
}
