import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import { sendError } from './respond.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `/metrics` is public unless METRICS_TOKEN is set; then only `Authorization: Bearer <token>` reads it. */
export function metricsAccess(config: Pick<Config, 'metricsToken'>): RequestHandler {
  const token = config.metricsToken;
  if (!token) return (_req, _res, next) => next();
  const expected = digest(token);
  return (req, res, next) => {
    const sent = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) {
      next();
      return;
    }
    res.set('WWW-Authenticate', 'Bearer realm="metrics"');
    sendError(
      res,
      new AppError(
        'METRICS_UNAUTHORIZED',
        'GET /metrics needs the metrics token (METRICS_TOKEN) as a bearer token.',
      ),
    );
  };
}
