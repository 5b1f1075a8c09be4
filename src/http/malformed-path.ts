import type { ServerResponse } from 'node:http';
import { AppError, errorHeaders } from '../app-error.js';

/** The path part of a request target, without its query. */
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

/** Whether the request's path has percent-encoding that is not valid UTF-8 (`/%ff`, `/mcp%ff`). */
export function hasMalformedPath(url: string | undefined): boolean {
  if (url === undefined || !url.includes('%')) return false;
  try {
    decodeURIComponent(pathOf(url));
    return false;
  } catch {
    return true;
  }
}

/** Answers such a request 400 in the error shape, before any face sees it (nothing is logged). */
export function rejectMalformedPath(res: ServerResponse): void {
  const error = new AppError(
    'PATH_INVALID',
    'The request path has malformed percent-encoding (each %XX must form valid UTF-8).',
  );
  const body = JSON.stringify(error.toJSON());
  res.writeHead(error.status, {
    ...errorHeaders(error),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
