import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, errorHeaders } from '../app-error.js';
import {
  createRequestContext,
  type RequestContext,
  type Services,
  servicesOfRequest,
} from '../context.js';
import { payloadTooLarge } from './body-limit.js';
import { toAppError } from './failure.js';
import { requestFactsOf } from './request-facts.js';

export function sendError(
  res: Response,
  error: AppError,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res
    .status(error.status)
    .set({ ...errorHeaders(error), ...headers })
    .json(error.toJSON());
}

/** What a route adds to its requests' facts and its failures' headers (/mcp: its resource and challenge). */
export interface RouteAuth {
  resource?: string;
  challenge?: (error: AppError) => Record<string, string>;
}

/** An express handler that builds the request context, runs the operation and maps any failure once. */
export function operationRoute(
  services: Services,
  run: (ctx: RequestContext, req: Request, res: Response) => Promise<void>,
  auth: RouteAuth = {},
): RequestHandler {
  return async (req, res) => {
    let ctx: RequestContext | undefined;
    try {
      ctx = await createRequestContext(services, {
        ...requestFactsOf(req, services),
        ...(auth.resource ? { resource: auth.resource } : {}),
      });
      await run(ctx, req, res);
    } catch (error) {
      // Logged through the request's own services when it has them: a traced one's log line carries its ids.
      const failure = toAppError(error, ctx?.services ?? servicesOfRequest(services, req));
      sendError(res, failure, auth.challenge?.(failure));
    }
  };
}

/** Answers 405 with `Allow` for a known path asked with another method. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  return (req, res) => {
    res.set('Allow', allow);
    sendError(
      res,
      new AppError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed here; use ${allowed.join(' or ')}.`,
        { allow },
      ),
    );
  };
}

/** Express's error middleware: body parser failures and anything else that escaped a route. */
export function restErrorHandler(services: Services) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(res, bodyParserError(error) ?? toAppError(error, servicesOfRequest(services, req)));
  };
}

function bodyParserError(error: unknown): AppError | undefined {
  const type = (error as { type?: string }).type;
  switch (type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_JSON', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return payloadTooLarge();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('INVALID_INPUT', 'The request body could not be read.');
    default:
      return undefined;
  }
}
