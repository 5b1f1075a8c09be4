import { type Request, type Response, Router } from 'express';
import { AppError, errorHeaders } from '../app-error.js';
import type { RequestContext, Services } from '../context.js';
import { sendError } from '../http/respond.js';
import { type Item, SHARED_KINDS, type SharedKind } from '../operations/items/item.js';
import { pieceSource } from '../operations/items/item-files.js';
import { loadCode } from '../operations/items/loaders.js';
import { thumbnailOf } from '../operations/kidlisp/thumbnail-store.js';
import { findRemoval, removedError } from '../operations/takedowns/removal.js';
import { pageContext } from './page-context.js';
import { imagePath, pagePath, shareTitle, THUMBNAIL_SIZE } from './share-meta.js';
import { placeholderPng } from './thumbnails/placeholder.js';
import { THUMBNAIL_DEFAULTS } from './thumbnails/thumbnails.js';

/**
 * How long a thumbnail request waits for its picture: a render that starts at once always ends
 * (drawn, or stopped at its budget) within it; one still waiting for its turn answers the placeholder.
 */
export const THUMBNAIL_WAIT_MS = THUMBNAIL_DEFAULTS.budgetMs + 1_000;

/** The program a thumbnail draws: a KidLisp item's source, or a `.lisp` piece's file; null for other kinds. */
async function drawnSource(ctx: RequestContext, item: Item): Promise<string | null> {
  if (item.kind === 'kidlisp') return item.source ?? '';
  if (item.kind === 'piece' && item.ext === 'lisp') return pieceSource(ctx, item);
  return null;
}

/**
 * No picture in time: 503 with Retry-After, and for a client that takes images (an `<img>`) the
 * placeholder as the body, so the page shows it rather than a broken image; JSON clients get the
 * contract's error body.
 */
function sendPlaceholder(req: Request, res: Response): void {
  const error = new AppError('TIMEOUT', 'The thumbnail is not drawn yet; retry shortly.');
  if (req.accepts(['image/png', 'application/json']) === 'application/json') {
    sendError(res, error);
    return;
  }
  res
    .status(error.status)
    .set({ ...errorHeaders(error), 'Cache-Control': 'no-store' })
    .type('png')
    .send(placeholderPng(THUMBNAIL_SIZE));
}

/** The code an item page URL names: `/$code` (KidLisp) or `/code`; nothing for other paths. */
function codeOfPageUrl(url: string): { code: string; kinds: readonly SharedKind[] } | undefined {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'http://page.invalid').pathname);
  } catch {
    return undefined;
  }
  const match = /^\/(\$?)([^/.~]+)$/.exec(path);
  if (!match) return undefined;
  return { code: match[2] as string, kinds: match[1] ? ['kidlisp'] : SHARED_KINDS };
}

/**
 * Share previews: `GET /thumbnail/<code>.png` (a KidLisp program's or `.lisp` piece's first
 * frames with its embeds and paintings, drawn by the runtime in a worker thread, a few at a time,
 * and kept in object storage: thumbnail-store.ts) and `GET /oembed?url=<page>` (oEmbed
 * 1.0, JSON). The item pages link both from their `<head>` (share-meta.ts).
 */
export function shareRoutes(services: Services): Router {
  const router = Router();
  const { publicUrl } = services.config;

  router.get('/thumbnail/:file', async (req: Request<{ file: string }>, res, next) => {
    const match = /^([^.]+)\.png$/.exec(req.params.file);
    if (!match) return next();
    try {
      const ctx = await pageContext(services, req);
      const item = await loadCode(ctx, match[1] as string, ['kidlisp', 'piece']);
      const removal = item ? null : await findRemoval(services.db, match[1] as string);
      if (removal) return sendError(res, removedError(removal));
      const source = item && (await drawnSource(ctx, item));
      if (!item || source === null) return next();
      const picture = await thumbnailOf(ctx, item.code, source, THUMBNAIL_WAIT_MS, 'share');
      if (!picture) return sendPlaceholder(req, res);
      const { key, png } = picture;
      res
        .type('png')
        .set({
          ETag: `"${key}"`,
          'Cache-Control': 'public, max-age=86400',
          'Content-Security-Policy': "default-src 'none'; sandbox",
        })
        .send(png);
    } catch (error) {
      next(error);
    }
  });

  router.get('/oembed', async (req, res, next) => {
    const url = typeof req.query.url === 'string' ? req.query.url : '';
    const format = typeof req.query.format === 'string' ? req.query.format : 'json';
    if (format !== 'json') {
      res.status(501).type('text/plain').send('Only format=json is offered.');
      return;
    }
    const target = codeOfPageUrl(url);
    if (!target) {
      sendError(res, new AppError('NOT_FOUND', 'The url is not an item page of this service.'));
      return;
    }
    try {
      const item = await loadCode(await pageContext(services, req), target.code, target.kinds);
      const removal = item ? null : await findRemoval(services.db, target.code);
      if (removal) return sendError(res, removedError(removal));
      if (!item) {
        sendError(res, new AppError('NOT_FOUND', `Nothing is published as ${target.code}.`));
        return;
      }
      const common = {
        version: '1.0',
        title: shareTitle(item),
        provider_name: 'publish-gateway',
        provider_url: publicUrl,
        url: `${publicUrl}${pagePath(item)}`,
      };
      const image = imagePath(item);
      res.json(
        item.kind !== 'painting' && image
          ? {
              ...common,
              type: 'photo',
              url: `${publicUrl}${image}`,
              width: THUMBNAIL_SIZE,
              height: THUMBNAIL_SIZE,
              thumbnail_url: `${publicUrl}${image}`,
              thumbnail_width: THUMBNAIL_SIZE,
              thumbnail_height: THUMBNAIL_SIZE,
            }
          : { ...common, type: 'link' },
      );
    } catch (error) {
      next(error);
    }
  });
  return router;
}
