import type { Router } from 'express';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/context.js';
import { createRootDocsRouter } from '../../src/docs/docs-routes.js';
import { createRestRouter } from '../../src/rest/router.js';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Services enough to build the routers: nothing is called until a request arrives. */
export function routerServices(publicUrl = 'https://docs.test'): Services {
  return {
    config: loadConfig({ PUBLIC_URL: publicUrl, LOG_LEVEL: 'silent' }),
  } as unknown as Services;
}

const routesOf = (router: Router, prefix: string) =>
  ((router as unknown as { stack: RouteLayer[] }).stack ?? [])
    .filter((layer) => layer.route)
    .flatMap((layer) => {
      const route = layer.route as NonNullable<RouteLayer['route']>;
      const path = route.path === '/' ? prefix : `${prefix}${route.path}`;
      // router.all() answers 405 for the other methods; it is not a route of its own.
      return Object.keys(route.methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${path}`);
    });

/** Every `METHOD /path` the service mounts for REST: the /api router plus the root docs route. */
export function mountedRestRoutes(services: Services = routerServices()): string[] {
  const root = routesOf(createRootDocsRouter(services), '');
  return [...new Set([...routesOf(createRestRouter(services), '/api'), ...root])].sort();
}
