import { chatRoutes } from './chat-routes.js';
import { docsRoutes } from './docs-routes.js';
import { eventRoutes } from './event-routes.js';
import { itemRoutes } from './item-routes.js';
import { keyRoutes } from './key-routes.js';
import { lineageRoutes } from './lineage-routes.js';
import { pageRoutes } from './page-routes.js';
import { publishRoutes } from './publish-routes.js';
import { renderRoutes } from './render-routes.js';
import { pathsOf, type RouteSpec } from './route-spec.js';
import { searchRoutes } from './search-routes.js';

export { FEED_SIZE, WORKS_PAGE_SIZE } from './page-routes.js';
export * from './route-spec.js';

/**
 * The route table: every HTTP route of the REST and docs faces and the pages of works, in the order the docs show
 * them. The REST router and the docs routes are mounted from it, the metrics label requests by
 * it, and the docs object and OpenAPI document render it.
 */
export function routeTable(baseUrl: string): RouteSpec[] {
  return [
    ...publishRoutes(baseUrl),
    ...itemRoutes(baseUrl),
    ...lineageRoutes(baseUrl),
    ...searchRoutes(baseUrl),
    ...renderRoutes(),
    ...chatRoutes(),
    ...keyRoutes(),
    ...eventRoutes(),
    ...docsRoutes(),
    ...pageRoutes(),
  ];
}

/** Every path of the table (examples aside, the table does not depend on the base URL). */
export const routePaths = (): string[] => routeTable('').flatMap(pathsOf);
