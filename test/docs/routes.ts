import { routeTable } from '../../src/http/routes/index.js';
import type { HttpClient } from '../support/http-client.js';

/** Every `METHOD /path` the route table documents, sorted. */
export const documentedRoutes = (): string[] =>
  routeTable('')
    .flatMap((route) =>
      [route.path, ...(route.aliases ?? [])].map((path) => `${route.method} ${path}`),
    )
    .sort();

const OTHER_METHOD = { GET: 'POST', POST: 'GET' } as const;

/**
 * Asks the running service for each documented route, and for the same path with the other
 * method; answers `METHOD /path -> status` for every route it serves, so a test can compare
 * that list with the documented one without looking inside express.
 */
export async function servedRoutes(
  http: HttpClient,
): Promise<{ served: string[]; other: number[] }> {
  const served: string[] = [];
  const other: number[] = [];
  // A stream never ends by itself: asked with an invalid channel, it answers at once (400).
  const streams = new Set(
    routeTable('')
      .filter((route) => route.serve.face === 'rest' && route.serve.answer === 'event-stream')
      .flatMap((route) => [route.path, ...(route.aliases ?? [])]),
  );
  for (const route of documentedRoutes()) {
    const [method, path] = route.split(' ') as ['GET' | 'POST', string];
    const asked = streams.has(path) ? `${path}?instance=none` : path;
    const answer = await http.send(asked, { method, ...(method === 'POST' ? { body: {} } : {}) });
    if (answer.status !== 404 && answer.status !== 405) served.push(route);
    other.push((await http.send(path, { method: OTHER_METHOD[method] })).status);
  }
  return { served: served.sort(), other };
}
