import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { RETRY_AFTER_SECONDS } from './app-error.js';
import type { Services } from './context.js';
import { apiInfo } from './docs/api-info.js';
import { createDocsRouter } from './docs/docs-routes.js';
import { CompiledOperations } from './graphql/compiled-execution.js';
import { GRAPHIQL_ASSETS, graphiqlAssetsRouter } from './graphql/graphiql.js';
import { createGraphqlListener } from './graphql/plain-post.js';
import { createPreparedRun } from './graphql/prepared-run.js';
import { createGraphqlHandler } from './graphql/yoga.js';
import { MAX_BODY_BYTES } from './http/body-limit.js';
import { trustFunction } from './http/client-address.js';
import { answerConditionalRequests } from './http/conditional.js';
import { baseSecurity } from './http/html/page-security.js';
import { hasMalformedPath, rejectMalformedPath } from './http/malformed-path.js';
import { metricsAccess } from './http/metrics-access.js';
import { routePaths } from './http/routes/index.js';
import { createMcpRoute } from './mcp/http.js';
import { mcpOriginGuard, mcpOriginPolicy } from './mcp/origin-guard.js';
import { protectedResourceRouter } from './mcp/protected-resource-routes.js';
import { createRouteLabeler } from './metrics.js';
import { createPagesRouter } from './pages/router.js';
import { createViewCache, type ViewCache } from './pages/view-cache.js';
import { createListingCache, type ListingCache } from './pages/works/listing-cache.js';
import { replayCachedChatPage } from './rest/chat-page.js';
import { createReadRoutes } from './rest/read-routes.js';
import { createRestRouter } from './rest/router.js';

/**
 * The express app: /metrics, /healthz and /readyz, the docs routes, REST under /api, the MCP
 * endpoint at /mcp, and the pages (with the 404 page for everything else). /graphql never
 * reaches it (see createRequestListener).
 */
function createApp(services: Services, views: ViewCache, listings: ListingCache): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustFunction(services.config.trustProxy));
  answerConditionalRequests(app);

  app.use(baseSecurity(services.config));

  app.get('/metrics', metricsAccess(services.config), async (_req, res) => {
    res.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await services.db.ping();
      res.json({ status: 'ready' });
    } catch {
      res
        .status(503)
        .set('Retry-After', String(RETRY_AFTER_SECONDS))
        .json({ status: 'database unavailable' });
    }
  });

  app.use(createDocsRouter(services));
  app.use('/api', createRestRouter(services));
  app.use(protectedResourceRouter(services));
  app.all(
    '/mcp',
    mcpOriginGuard(mcpOriginPolicy(services.config)),
    createMcpRoute(services, () => apiInfo(services.config)),
  );
  if (services.config.graphiql) app.use(GRAPHIQL_ASSETS, graphiqlAssetsRouter());
  // Last: the viewer pages, and the 404 page for every path nothing above answered.
  app.use(createPagesRouter(services, views, listings));
  return app;
}

const isGraphqlPath = (url: string | undefined, endpoint: string) =>
  url?.startsWith(endpoint) &&
  (url.length === endpoint.length || url[endpoint.length] === '?' || url[endpoint.length] === '/');

/**
 * The HTTP entry: /graphql goes straight to Yoga (no express in front of it); cached chat pages,
 * viewer pages and the plain REST reads are answered before express; everything else goes to express.
 */
export function createRequestListener(services: Services): RequestListener {
  // One store of compiled operations: Yoga's runs fill it, the plain path's prepared runs read it.
  const compiled = new CompiledOperations();
  const graphql = createGraphqlHandler(services, compiled, { graphiql: services.config.graphiql });
  const answerGraphql = createGraphqlListener(
    graphql,
    createPreparedRun(services, compiled),
    MAX_BODY_BYTES,
  );
  // Viewer pages and raw files, rendered once per item: a repeated GET is replayed before express.
  const views = createViewCache();
  // The home page, author pages and feeds, kept a few seconds: a repeated GET is replayed too.
  const listings = createListingCache(services);
  const app = createApp(services, views, listings);
  // A cached chat page is the hot read: replayed without express (src/rest/chat-page.ts).
  const replayChatHit = replayCachedChatPage(services);
  // The REST reads, answered as express would (its query parser and ETag) without its router.
  const answerRead = createReadRoutes(services, {
    parseQuery: app.get('query parser fn'),
    etag: app.get('etag fn'),
  });
  const { requests, duration } = services.metrics;
  const routeLabel = createRouteLabeler(routePaths());
  const { telemetry } = services;
  return (req: IncomingMessage, res: ServerResponse) => {
    const route = routeLabel(req.url);
    const method = req.method ?? 'GET';
    const stopTimer = duration.startTimer({ route, method });
    res.once('finish', () => {
      stopTimer();
      requests.inc({ route, method, status: String(res.statusCode) });
    });
    telemetry.serve(req, res, route, () => {
      if (hasMalformedPath(req.url)) rejectMalformedPath(res);
      else if (isGraphqlPath(req.url, graphql.graphqlEndpoint)) void answerGraphql(req, res);
      else if (
        !replayChatHit(req, res) &&
        !views.replay(req, res) &&
        !listings.replay(req, res) &&
        !answerRead(req, res)
      )
        app(req, res);
    });
  };
}
