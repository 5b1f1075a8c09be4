import { type Request, Router } from 'express';
import { AppError } from '../app-error.js';
import { createRequestContext, type Services } from '../context.js';
import { clientAddressOf } from '../http/client-address.js';
import { sendError } from '../http/respond.js';
import { SHARED_KINDS, type SharedKind } from '../operations/items/item.js';
import { loadCode } from '../operations/items/loaders.js';
import { imagePath, pagePath, shareTitle, THUMBNAIL_SIZE } from './share-meta.js';
import { createThumbnails } from './thumbnails/thumbnails.js';

const pageContext = (services: Services, req: Request) =>
  createRequestContext(services, {
    authorization: undefined,
    clientAddress: clientAddressOf(req, services.config.trustProxy),
  });

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
 * Share previews: `GET /thumbnail/<code>.png` (a KidLisp program's first frames, drawn by the
 * runtime in a worker thread and cached per program hash) and `GET /oembed?url=<page>` (oEmbed
 * 1.0, JSON). The item pages link both from their `<head>` (share-meta.ts).
 */
export function shareRoutes(services: Services): Router {
  const router = Router();
  const thumbnails = createThumbnails();
  const { publicUrl } = services.config;

  router.get('/thumbnail/:file', async (req: Request<{ file: string }>, res, next) => {
    const match = /^([^.]+)\.png$/.exec(req.params.file);
    if (!match) return next();
    try {
      const item = await loadCode(await pageContext(services, req), match[1] as string, [
        'kidlisp',
      ]);
      if (!item) return next();
      const { key, png } = await thumbnails.png(item.source ?? '');
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
        item.kind === 'kidlisp' && image
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
