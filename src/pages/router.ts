import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { findClock } from '../resolvers/clock-view.js';
import type { Services } from '../resolvers/context.js';
import { errorHeaders, toAppError } from '../resolvers/errors.js';
import { findPublished, pieceSource, readPublishedFile } from '../resolvers/view.js';
import { clockPage } from './clock-page.js';
import { GRAPHIQL_ASSETS, graphiqlAssetsRouter } from './graphiql.js';
import { itemPage, piecePage } from './item-pages.js';
import { errorPage, notFoundPage } from './not-found-page.js';
import { publicDir } from './public-dir.js';
import { pageSecurity } from './security.js';

/** Raw files are data, never a document: no scripts, no plugins, even if opened directly. */
const RAW_FILE_POLICY = "default-src 'none'; sandbox";

const nosniff = (res: Response) => res.set('X-Content-Type-Options', 'nosniff');

/**
 * The viewer pages: /<code>, /$<code>, /<code>.<ext> (the raw file), /clock~<code>, the static
 * assets, and the 404 page for every path nothing else answered. Mount it last.
 */
export function createPagesRouter(services: Services): Router {
  const router = Router();
  const ctx = { services };

  router.use('/assets', express.static(publicDir, { index: false, maxAge: '1h', setHeaders: nosniff }));
  if (services.config.graphiql) router.use(GRAPHIQL_ASSETS, graphiqlAssetsRouter());
  router.use(pageSecurity(services.config));

  const sendHtml = (res: Response, body: string) => res.type('html').send(body);
  const sendFile = (res: Response, type: string, body: string | Buffer) => res.type(type).set('Content-Security-Policy', RAW_FILE_POLICY).send(body);

  async function sendItem(res: Response, code: string, options: { kidlispOnly?: boolean } = {}): Promise<boolean> {
    const item = await findPublished(ctx, code);
    if (!item || (options.kidlispOnly && item.kind !== 'kidlisp')) return false;
    sendHtml(res, item.kind === 'piece' ? piecePage(item, await pieceSource(ctx, item)) : itemPage(item));
    return true;
  }

  async function sendRawFile(res: Response, code: string, ext: string): Promise<boolean> {
    const item = await findPublished(ctx, code);
    if (!item) return false;
    if (item.kind === 'kidlisp' || (item.kind === 'piece' && item.ext !== 'mjs')) {
      const source = item.kind === 'kidlisp' ? item.source : await pieceSource(ctx, item);
      if (ext !== (item.kind === 'kidlisp' ? 'lisp' : item.ext) || source === null) return false;
      sendFile(res, 'text/plain; charset=utf-8', source);
      return true;
    }
    if (item.kind === 'piece') {
      const source = ext === 'mjs' ? await pieceSource(ctx, item) : null;
      if (source === null) return false;
      sendFile(res, 'text/javascript; charset=utf-8', source);
      return true;
    }
    if (ext !== (item.kind === 'painting' ? 'png' : item.format)) return false;
    const file = await readPublishedFile(ctx, item);
    if (!file) return false;
    res.set('Content-Disposition', ext === 'zip' ? `attachment; filename="${code}.zip"` : 'inline');
    sendFile(res, file.contentType, file.body);
    return true;
  }

  async function sendClock(res: Response, code: string): Promise<boolean> {
    const clock = await findClock(ctx, code);
    if (!clock) return false;
    sendHtml(res, clockPage(clock));
    return true;
  }

  router.get('/:name', async (req: Request<{ name: string }>, res, next) => {
    const { name } = req.params;
    const dot = name.lastIndexOf('.');
    try {
      const sent = name.startsWith('clock~')
        ? await sendClock(res, name.slice('clock~'.length))
        : name.startsWith('$')
          ? await sendItem(res, name.slice(1), { kidlispOnly: true })
          : dot > 0
            ? await sendRawFile(res, name.slice(0, dot), name.slice(dot + 1))
            : await sendItem(res, name);
      if (!sent) next();
    } catch (error) {
      next(error);
    }
  });

  router.use(notFound);
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error, services);
    if (res.headersSent) return;
    res.status(appError.status).set(errorHeaders(appError));
    if (prefersJson(req)) res.json(appError.toJSON());
    else sendHtml(res, errorPage(appError.message));
  });
  return router;
}

/** Browsers (and clients that accept anything) get the page; a client asking for JSON gets the contract's body. */
const prefersJson = (req: Request) => req.accepts(['text/html', 'application/json']) === 'application/json';

function notFound(req: Request, res: Response): void {
  res.status(404);
  if ((req.method === 'GET' || req.method === 'HEAD') && !prefersJson(req)) {
    res.type('html').send(notFoundPage(req.path));
    return;
  }
  const error = new AppError('NOT_FOUND', `There is no route ${req.method} ${req.path}.`);
  res.json(error.toJSON());
}
