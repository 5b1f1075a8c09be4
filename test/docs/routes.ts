import { routeTable } from '../../src/http/routes/index.js';
import type { HttpClient } from '../support/http-client.js';

/** Every `METHOD /path` the route table documents, sorted. */
export const documentedRoutes = (): string[] =>
  routeTable('')
    .flatMap((route) =>
      [route.path, ...(route.aliases ?? [])].map((path) => `${route.method} ${path}`),
    )
    .sort();

/** A documented path as a client asks it: each `{parameter}` filled with a code nothing has. */
export const concretePath = (path: string) => path.replace(/\{\w+\}/g, 'nothing-here');

/**
 * Asks the running service for each documented route, and for the same path with a method no
 * row of that path documents; answers `METHOD /path -> status` for every route it serves, so a
 * test can compare that list with the documented one without looking inside express. A route
 * that answers "nothing has this code" (404 ITEM_NOT_FOUND) or "no author has this handle"
 * (404 AUTHOR_NOT_FOUND) is served.
 */
export async function servedRoutes(
  http: HttpClient,
): Promise<{ served: string[]; other: number[] }> {
  const routes = documentedRoutes();
  const served: string[] = [];
  const other: number[] = [];
  // A stream never ends by itself: asked with an invalid channel (chat) or kind (works), it
  // answers at once (400); each stream reads only its own parameters.
  const streams = new Set(
    routeTable('')
      .filter((route) => route.serve.face === 'rest' && route.serve.answer === 'event-stream')
      .flatMap((route) => [route.path, ...(route.aliases ?? [])]),
  );
  for (const route of routes) {
    const [method, path] = route.split(' ') as ['GET' | 'POST', string];
    const asked = streams.has(path) ? `${path}?instance=none&kind=none` : concretePath(path);
    // Asked as an API client: a page's "not found" then answers the contract's JSON too.
    const answer = await http.send(asked, {
      method,
      headers: { accept: 'application/json' },
      ...(method === 'POST' ? { body: {} } : {}),
    });
    const missingItem =
      answer.status === 404 && ['ITEM_NOT_FOUND', 'AUTHOR_NOT_FOUND'].includes(answer.json?.code);
    if (missingItem || (answer.status !== 404 && answer.status !== 405)) served.push(route);
    const documented = routes.filter((entry) => entry.endsWith(` ${path}`));
    const otherMethod = ['POST', 'GET', 'PUT'].find(
      (candidate) => !documented.includes(`${candidate} ${path}`),
    ) as string;
    other.push((await http.send(concretePath(path), { method: otherMethod })).status);
  }
  return { served: served.sort(), other };
}
