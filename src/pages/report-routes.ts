import express, { type Request, type Response, Router } from 'express';
import { AppError, errorHeaders } from '../app-error.js';
import type { RequestContext, Services } from '../context.js';
import { fromOwnPages } from '../http/request-facts.js';
import { loadAddress } from '../operations/items/loaders.js';
import { findRemoval } from '../operations/takedowns/removal.js';
import { fileReport, reportInput } from '../operations/takedowns/reports.js';
import { errorPage } from './not-found-page.js';
import { pageContext } from './page-context.js';
import { removedPage, reportForm, reportThanks } from './takedown-pages.js';

const REPORT_BODY_LIMIT = '16kb';

/**
 * `/<code>/report` (and `/clock~<code>/report`): the report form of a work (GET) and its sending
 * (POST, an HTML form, no script). Reports are listed by `publish-gateway work reports`.
 */
export function reportRoutes(services: Services): Router {
  const router = Router();
  const page = (res: Response, status: number, body: string) =>
    res.status(status).set('Cache-Control', 'no-store').type('html').send(body);

  /** The work at the path, or an answer already sent (410 for a removed one); undefined: 404. */
  async function workOf(ctx: RequestContext, req: Request<{ name: string }>, res: Response) {
    const item = await loadAddress(ctx, req.params.name);
    if (item) return item;
    const removal = await findRemoval(services.db, req.params.name);
    if (removal) page(res, 410, removedPage(removal));
    return removal ? null : undefined;
  }

  router.get('/:name/report', async (req: Request<{ name: string }>, res, next) => {
    try {
      const item = await workOf(await pageContext(services, req), req, res);
      if (item === undefined) return next();
      if (item) page(res, 200, reportForm(item));
    } catch (error) {
      next(error);
    }
  });

  router.post(
    '/:name/report',
    express.urlencoded({ extended: false, limit: REPORT_BODY_LIMIT }),
    async (req: Request<{ name: string }>, res, next) => {
      try {
        // A cross-site form cannot send a report in a visitor's name (see fromOwnPages).
        if (!fromOwnPages(req, services.config.publicUrl)) {
          const error = new AppError('ORIGIN_NOT_ALLOWED', 'Reports are sent from this site only.');
          page(res, error.status, errorPage(error.message));
          return;
        }
        const ctx = await pageContext(services, req);
        const item = await workOf(ctx, req, res);
        if (item === undefined) return next();
        if (!item) return;
        const body = (req.body ?? {}) as Record<string, unknown>;
        const values = {
          reason: typeof body.reason === 'string' ? body.reason : undefined,
          details: typeof body.details === 'string' ? body.details : undefined,
        };
        const parsed = reportInput.safeParse(values);
        if (!parsed.success) {
          page(res, 400, reportForm(item, values, parsed.error.issues[0]?.message));
          return;
        }
        try {
          await fileReport(ctx, item, parsed.data);
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
          res.set(errorHeaders(error));
          page(res, error.status, reportForm(item, values, error.message));
          return;
        }
        page(res, 200, reportThanks(item));
      } catch (error) {
        next(error);
      }
    },
  );
  return router;
}
