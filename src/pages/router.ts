import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError, errorHeaders } from '../app-error.js';
import { type RequestContext, type Services, servicesOfRequest } from '../context.js';
import { sourceHash } from '../domain/hash.js';
import { toAppError } from '../http/failure.js';
import { html } from '../http/html/html.js';
import { cspHeader, pageSecurity, playerDirectives } from '../http/html/page-security.js';
import { publicDir } from '../http/html/public-dir.js';
import { sendError } from '../http/respond.js';
import { chatMessagesConnection } from '../operations/chat/index.js';
import { presentEntries } from '../operations/chat/live/index.js';
import { type Item, SHARED_KINDS, type SharedKind } from '../operations/items/item.js';
import {
  kindsWithRawExt,
  pieceSource,
  rawExtOf,
  readItemFile,
  withPreview,
} from '../operations/items/item-files.js';
import { loadCode } from '../operations/items/loaders.js';
import { onRemixPublished } from '../operations/lineage/remix-of.js';
import { runOperation } from '../operations/operation.js';
import { findRemoval, removedError } from '../operations/takedowns/removal.js';
import { onWorksRemoved } from '../operations/takedowns/watch.js';
import { accountRoutes } from './account-routes.js';
import { CHAT_PAGE_SIZE, chatPage } from './chat-page.js';
import { clockPage } from './clock-page.js';
import { editorRoutes } from './editor/editor-routes.js';
import { itemPage, piecePage } from './item-pages.js';
import { readLineageSection } from './lineage-section.js';
import { errorPage, notFoundPage } from './not-found-page.js';
import { pageContext } from './page-context.js';
import { playerRoutes } from './player-routes.js';
import { reportRoutes } from './report-routes.js';
import { shareRoutes } from './share-routes.js';
import { removedPage, reportLink } from './takedown-pages.js';
import type { ViewCache } from './view-cache.js';
import type { ListingCache } from './works/listing-cache.js';
import { worksRoutes } from './works/works-routes.js';

/** Raw files are data, never a document: no scripts, no plugins, even if opened directly. */
const RAW_FILE_POLICY = "default-src 'none'; sandbox";

const nosniff = (res: Response) => res.set('X-Content-Type-Options', 'nosniff');

/**
 * The viewer pages: /<code>, /$<code>, /<code>.<ext> (the raw file), /clock~<code>, the static
 * assets, and the 404 page for every path nothing else answered. Mount it last.
 */
export function createPagesRouter(
  services: Services,
  cache: ViewCache,
  listings: ListingCache,
): Router {
  const router = Router();

  router.use(
    '/assets',
    express.static(publicDir, { index: false, maxAge: '1h', setHeaders: nosniff }),
  );
  router.use(playerRoutes());
  router.use(pageSecurity(services.config));
  router.use(shareRoutes(services));
  router.use(worksRoutes(services, listings));
  router.use(reportRoutes(services));
  router.use(editorRoutes(services));
  router.use(accountRoutes(services));

  const sendHtml = (res: Response, body: string) => res.type('html').send(body);
  const playerHeaders = {
    'Content-Security-Policy': cspHeader(playerDirectives(services.config)),
  };

  // A page lists its remixes: a new remix sends its parent's page through express again, where
  // the list is read afresh (other processes see it once their remembered path expires).
  onRemixPublished(services, (parent) => cache.forget(`page:${parent.kind}:${parent.code}:`));
  // A work removed or restored anywhere: every kept view goes, so no path replays a removed
  // work and remixes' pages name their parent as removed (removals are rare; views re-render).
  onWorksRemoved(services, () => cache.forget(''));

  /** An item page's lineage section, and the part of the view's key that says which one it is. */
  async function lineageOf(ctx: RequestContext, req: Request, item: Item) {
    const cursor = typeof req.query.remixes === 'string' ? req.query.remixes : undefined;
    const section = html`${await readLineageSection(ctx, item, cursor)}${reportLink(item)}`;
    return { section, key: sourceHash(section.value) };
  }

  /**
   * Sends a view: from the cache when one is stored under `key` (no rendering), with its ETag
   * (304 when the client has it); the path is remembered so the next GET is replayed before express.
   */
  function sendView(
    req: Request,
    res: Response,
    key: string,
    type: string,
    render: () => string | Buffer,
    headers: Record<string, string> = {},
  ): true {
    const view = cache.view(key, render);
    res.type(type).set(headers).set('ETag', view.etag);
    if (!req.originalUrl.includes('?')) {
      view.headers ??= { ...res.getHeaders(), 'content-length': view.body.length };
      cache.remember(req.originalUrl, key);
    }
    res.send(view.body);
    return true;
  }
  const rawHeaders = (extra: Record<string, string> = {}) => ({
    'Content-Security-Policy': RAW_FILE_POLICY,
    ...extra,
  });

  async function sendItem(
    ctx: RequestContext,
    req: Request,
    res: Response,
    code: string,
    kinds: readonly SharedKind[] = SHARED_KINDS,
  ): Promise<boolean> {
    const item = await loadCode(ctx, code, kinds);
    if (!item) return false;
    const lineage = await lineageOf(ctx, req, item);
    switch (item.kind) {
      case 'kidlisp':
        return sendView(
          req,
          res,
          `page:kidlisp:${code}:${sourceHash(item.source ?? '')}:${lineage.key}`,
          'html',
          () => itemPage(withPreview(item), services.config.publicUrl, lineage.section),
          playerHeaders,
        );
      case 'piece': {
        const source = await pieceSource(ctx, item);
        // A page without its source (storage away) is sent, never kept.
        if (source === null) {
          sendHtml(res, piecePage(item, null, services.config.publicUrl, lineage.section));
          return true;
        }
        return sendView(
          req,
          res,
          `page:piece:${code}:${sourceHash(source)}:${lineage.key}`,
          'html',
          () => piecePage(item, source, services.config.publicUrl, lineage.section),
          item.ext === 'lisp' ? playerHeaders : {},
        );
      }
      default:
        return sendView(req, res, `page:${item.kind}:${code}:${lineage.key}`, 'html', () =>
          itemPage(item, services.config.publicUrl, lineage.section),
        );
    }
  }

  /** `/<code>.<ext>`: only the item's own raw extension answers, and nothing is read from storage before that is known. */
  async function sendRawFile(
    ctx: RequestContext,
    req: Request,
    res: Response,
    code: string,
    ext: string,
  ): Promise<boolean> {
    const item = await loadCode(ctx, code, kindsWithRawExt(ext));
    if (!item || ext !== rawExtOf(item)) return false;
    if (item.kind === 'kidlisp') {
      const source = item.source ?? '';
      return sendView(
        req,
        res,
        `raw:kidlisp:${code}:${sourceHash(source)}`,
        'text/plain; charset=utf-8',
        () => source,
        rawHeaders(),
      );
    }
    if (item.kind === 'piece') {
      const source = await pieceSource(ctx, item);
      if (source === null) return false;
      return sendView(
        req,
        res,
        `raw:piece:${code}:${sourceHash(source)}`,
        item.ext === 'mjs' ? 'text/javascript; charset=utf-8' : 'text/plain; charset=utf-8',
        () => source,
        rawHeaders(),
      );
    }
    // Paintings and tapes: bytes straight from storage, with express's ETag of them (not kept here).
    const file = await readItemFile(ctx, item);
    if (!file) return false;
    res
      .type(file.contentType)
      .set(
        rawHeaders({
          'Content-Disposition': ext === 'zip' ? `attachment; filename="${code}.zip"` : 'inline',
        }),
      )
      .send(file.body);
    return true;
  }

  async function sendClock(
    ctx: RequestContext,
    req: Request,
    res: Response,
    code: string,
  ): Promise<boolean> {
    const clock = await loadCode(ctx, code, ['clock']);
    if (!clock) return false;
    const lineage = await lineageOf(ctx, req, clock);
    return sendView(
      req,
      res,
      `page:clock:${code}:${sourceHash(clock.source ?? '')}:${lineage.key}`,
      'html',
      () => clockPage(clock, lineage.section),
    );
  }

  // The live chat page; `chat` is a reserved code, so no item is hidden behind it.
  router.get('/chat', async (req, res, next) => {
    try {
      const ctx = await pageContext(services, req);
      const instance = typeof req.query.instance === 'string' ? req.query.instance : undefined;
      const page = await runOperation(chatMessagesConnection, ctx, {
        instance,
        last: CHAT_PAGE_SIZE,
      });
      const entries = await presentEntries(
        services.db,
        page.edges.map((edge) => edge.node),
      );
      res.set('Cache-Control', 'no-store');
      sendHtml(
        res,
        chatPage(
          instance === 'clock' || instance === 'all' ? instance : 'system',
          entries,
          page.pageInfo.endCursor,
        ),
      );
    } catch (error) {
      next(error);
    }
  });

  router.get('/:name', async (req: Request<{ name: string }>, res, next) => {
    const { name } = req.params;
    const dot = name.lastIndexOf('.');
    try {
      const ctx = await pageContext(services, req);
      const sent = name.startsWith('clock~')
        ? await sendClock(ctx, req, res, name.slice('clock~'.length))
        : name.startsWith('$')
          ? await sendItem(ctx, req, res, name.slice(1), ['kidlisp'])
          : dot > 0
            ? await sendRawFile(ctx, req, res, name.slice(0, dot), name.slice(dot + 1))
            : await sendItem(ctx, req, res, name);
      if (!sent) await sendRemoved(req, res, removedAddressOf(name));
      if (!res.headersSent) next();
    } catch (error) {
      next(error);
    }
  });

  /** The 410 page of a removed work (the error shape to a client asking for JSON); nothing otherwise. */
  async function sendRemoved(req: Request, res: Response, address: string): Promise<void> {
    const removal = await findRemoval(services.db, address);
    if (!removal) return;
    if (prefersJson(req)) return sendError(res, removedError(removal));
    res.status(410).set('Cache-Control', 'no-cache').type('html').send(removedPage(removal));
  }

  router.use(notFound);
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error, servicesOfRequest(services, req));
    if (prefersJson(req)) {
      sendError(res, appError);
      return;
    }
    if (res.headersSent) return;
    res.status(appError.status).set(errorHeaders(appError));
    sendHtml(
      res,
      appError.status === 404
        ? notFoundPage(req.path, appError.message)
        : errorPage(appError.message),
    );
  });
  return router;
}

/** The address a viewer path names: `/clock~<code>`, `/$<code>`, `/<code>.<ext>` or `/<code>`. */
function removedAddressOf(name: string): string {
  if (name.startsWith('clock~') || name.startsWith('$')) return name.replace(/^\$/, '');
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
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
