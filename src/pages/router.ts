import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError, errorHeaders } from '../app-error.js';
import { createRequestContext, type RequestContext, type Services } from '../context.js';
import { clientAddressOf } from '../http/client-address.js';
import { toAppError } from '../http/failure.js';
import { pageSecurity } from '../http/html/page-security.js';
import { publicDir } from '../http/html/public-dir.js';
import { sendError } from '../http/respond.js';
import { findClock } from '../operations/items/clock-item.js';
import {
  findPublished,
  type ItemType,
  itemTypesWithRawExt,
  pieceSource,
  rawExt,
  readPublishedFile,
  withPreview,
} from '../operations/items/published-item.js';
import { clockPage } from './clock-page.js';
import { itemPage, piecePage } from './item-pages.js';
import { errorPage, notFoundPage } from './not-found-page.js';
import { playerRoutes } from './player-routes.js';
import { shareRoutes } from './share-routes.js';

/** Raw files are data, never a document: no scripts, no plugins, even if opened directly. */
const RAW_FILE_POLICY = "default-src 'none'; sandbox";

const nosniff = (res: Response) => res.set('X-Content-Type-Options', 'nosniff');

/**
 * The viewer pages: /<code>, /$<code>, /<code>.<ext> (the raw file), /clock~<code>, the static
 * assets, and the 404 page for every path nothing else answered. Mount it last.
 */
export function createPagesRouter(services: Services): Router {
  const router = Router();

  router.use(
    '/assets',
    express.static(publicDir, { index: false, maxAge: '1h', setHeaders: nosniff }),
  );
  router.use(playerRoutes());
  router.use(pageSecurity(services.config));
  router.use(shareRoutes(services));

  const sendHtml = (res: Response, body: string) => res.type('html').send(body);
  const sendFile = (res: Response, type: string, body: string | Buffer) =>
    res.type(type).set('Content-Security-Policy', RAW_FILE_POLICY).send(body);

  async function sendItem(
    ctx: RequestContext,
    res: Response,
    code: string,
    types?: ItemType[],
  ): Promise<boolean> {
    const item = await findPublished(ctx, code, types);
    if (!item) return false;
    sendHtml(
      res,
      item.type === 'piece'
        ? piecePage(item, await pieceSource(ctx, item), services.config.publicUrl)
        : itemPage(item.type === 'kidlisp' ? withPreview(item) : item, services.config.publicUrl),
    );
    return true;
  }

  /** `/<code>.<ext>`: only the item's own raw extension answers, and nothing is read from storage before that is known. */
  async function sendRawFile(
    ctx: RequestContext,
    res: Response,
    code: string,
    ext: string,
  ): Promise<boolean> {
    const item = await findPublished(ctx, code, itemTypesWithRawExt(ext));
    if (!item || ext !== rawExt(item)) return false;
    if (item.type === 'kidlisp') {
      sendFile(res, 'text/plain; charset=utf-8', item.source);
      return true;
    }
    if (item.type === 'piece') {
      const source = await pieceSource(ctx, item);
      if (source === null) return false;
      sendFile(
        res,
        item.ext === 'mjs' ? 'text/javascript; charset=utf-8' : 'text/plain; charset=utf-8',
        source,
      );
      return true;
    }
    const file = await readPublishedFile(ctx, item);
    if (!file) return false;
    res.set('Content-Disposition', ext === 'zip' ? `attachment; filename="${code}.zip"` : 'inline');
    sendFile(res, file.contentType, file.body);
    return true;
  }

  async function sendClock(ctx: RequestContext, res: Response, code: string): Promise<boolean> {
    const clock = await findClock(ctx, code);
    if (!clock) return false;
    sendHtml(res, clockPage(clock));
    return true;
  }

  router.get('/:name', async (req: Request<{ name: string }>, res, next) => {
    const { name } = req.params;
    const dot = name.lastIndexOf('.');
    try {
      // Pages are public: a token is neither needed nor checked.
      const ctx = await createRequestContext(services, {
        authorization: undefined,
        clientAddress: clientAddressOf(req),
      });
      const sent = name.startsWith('clock~')
        ? await sendClock(ctx, res, name.slice('clock~'.length))
        : name.startsWith('$')
          ? await sendItem(ctx, res, name.slice(1), ['kidlisp'])
          : dot > 0
            ? await sendRawFile(ctx, res, name.slice(0, dot), name.slice(dot + 1))
            : await sendItem(ctx, res, name);
      if (!sent) next();
    } catch (error) {
      next(error);
    }
  });

  router.use(notFound);
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error, services);
    if (prefersJson(req)) {
      sendError(res, appError);
      return;
    }
    if (res.headersSent) return;
    res.status(appError.status).set(errorHeaders(appError));
    sendHtml(res, errorPage(appError.message));
  });
  return router;
}

/** Browsers (and clients that accept anything) get the page; a client asking for JSON gets the contract's body. */
const prefersJson = (req: Request) =>
  req.accepts(['text/html', 'application/json']) === 'application/json';

function notFound(req: Request, res: Response): void {
  if ((req.method === 'GET' || req.method === 'HEAD') && !prefersJson(req)) {
    res.status(404).type('html').send(notFoundPage(req.path));
    return;
  }
  sendError(res, new AppError('NOT_FOUND', `There is no route ${req.method} ${req.path}.`));
}
