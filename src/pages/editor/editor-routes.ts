import express, { type Request, type Response, Router } from 'express';
import { isAppError } from '../../app-error.js';
import { createRequestContext, type RequestContext, type Services } from '../../context.js';
import { cspHeader, playerDirectives } from '../../http/html/page-security.js';
import { requestFactsOf } from '../../http/request-facts.js';
import { methodNotAllowed } from '../../http/respond.js';
import { loadAddress } from '../../operations/items/loaders.js';
import { runOperation } from '../../operations/operation.js';
import { notFoundPage } from '../not-found-page.js';
import { pageContext } from '../page-context.js';
import {
  type EditorKind,
  editorKindOf,
  PUBLISH_OPERATIONS,
  STARTER_SOURCE,
} from './editor-kinds.js';
import { type EditorPageView, editorPage } from './editor-page.js';
import { checkSameOriginForm } from './same-origin-form.js';

/** The path of the editor; `new` is a reserved word (src/domain/codes.ts), so no code shadows it. */
export const EDITOR_PATH = '/new';

/** A form of the longest source (KidLisp's 50,000 characters), percent-encoded, fits. */
const FORM_LIMIT = '400kb';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * GET /new (`?kind=clock`, `?remix=<code>`): the editor, a plain form without scripts; POST /new:
 * the form's publish, through the same operations and validation as POST /api/store-kidlisp and
 * /api/store-clock, answered with 303 to the new work's page, or the form again with the error.
 */
export function editorRoutes(services: Services): Router {
  const router = Router();
  const { config } = services;
  // The KidLisp preview compiles the player's WebAssembly kernels, as on a work's page.
  const headers = {
    'Content-Security-Policy': cspHeader(playerDirectives(config)),
    'Cache-Control': 'no-store',
  };
  const send = (res: Response, status: number, view: EditorPageView) =>
    res.status(status).set(headers).type('html').send(editorPage(view));

  /** The remixed work's source, when `given` (`abc`, `$abc`; `bako`, `clock~bako`) names a work of this kind. */
  async function remixSource(ctx: RequestContext, kind: EditorKind, given: string) {
    const code = given.replace(/^\$|^clock~/, '');
    const item = await loadAddress(ctx, kind === 'clock' ? `clock~${code}` : code);
    return item && item.kind === kind ? { address: item.address, source: item.source ?? '' } : null;
  }

  router.get(EDITOR_PATH, async (req: Request, res, next) => {
    try {
      const kind = editorKindOf(req.query.kind);
      const remix = text(req.query.remix);
      if (remix === undefined || remix === '') {
        send(res, 200, { kind, source: STARTER_SOURCE[kind], remixOf: null, failure: null });
        return;
      }
      const parent = await remixSource(await pageContext(services, req), kind, remix);
      if (!parent) {
        const what = kind === 'clock' ? 'clock melody' : 'KidLisp work';
        res
          .status(404)
          .type('html')
          .send(notFoundPage(req.path, `There is no ${what} ${remix} to remix.`));
        return;
      }
      send(res, 200, { kind, source: parent.source, remixOf: parent.address, failure: null });
    } catch (error) {
      next(error);
    }
  });

  router.post(
    EDITOR_PATH,
    express.urlencoded({ extended: false, limit: FORM_LIMIT }),
    async (req, res, next) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const kind = editorKindOf(form.kind);
      const source = text(form.source) ?? '';
      const remixOf = text(form.remixOf) || null;
      try {
        checkSameOriginForm(req, config.publicUrl);
        // The signed-in member's (src/http/request-facts.ts), or anonymous.
        const ctx = await createRequestContext(services, requestFactsOf(req, services));
        const input = { source, remixOf };
        const result =
          kind === 'clock'
            ? await runOperation(PUBLISH_OPERATIONS.clock, ctx, input)
            : await runOperation(PUBLISH_OPERATIONS.kidlisp, ctx, input);
        res.redirect(303, new URL(result.url).pathname);
      } catch (error) {
        if (!isAppError(error) || error.code === 'ORIGIN_NOT_ALLOWED') {
          next(error);
          return;
        }
        send(res, error.status, { kind, source, remixOf, failure: error.message });
      }
    },
  );
  router.all(EDITOR_PATH, methodNotAllowed(['GET', 'POST']));
  return router;
}
