import { type Request, type Response, Router } from 'express';
import { AppError } from '../app-error.js';
import { endSession, startSession } from '../auth/sessions.js';
import {
  CALLBACK_PATH,
  createSiteSignIn,
  SIGN_IN_MINUTES,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
} from '../auth/sign-in.js';
import {
  clearedCookie,
  cookieOf,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  sessionCookie,
  siteCookie,
} from '../auth/site-cookies.js';
import { type Services, servicesOfRequest } from '../context.js';
import { toAppError } from '../http/failure.js';
import { fromOwnPages } from '../http/request-facts.js';
import { errorPage, notFoundPage } from './not-found-page.js';
import { KEYS_PAGE_PATH, keysPage } from './settings-keys-page.js';

/** Where a sign-in goes back to: a path of this site only, never another site (an open redirect). */
export const localPath = (value: unknown) =>
  typeof value === 'string' && /^\/(?!\/)[^\\\s]*$/.test(value) ? value : KEYS_PAGE_PATH;

const NOT_STORED = { 'Cache-Control': 'no-store' };

function failed(req: Request, res: Response, error: unknown, services: Services) {
  const failure = toAppError(error, servicesOfRequest(services, req));
  res.status(failure.status).set(NOT_STORED).type('html').send(errorPage(failure.message));
}

/**
 * A member's pages: sign-in with the issuer (a plain link, then its callback), sign-out (a form
 * POST from these pages only) and /settings/keys. Without a sign-in client the sign-in paths are
 * not found, and the settings page takes a pasted key instead.
 */
export function accountRoutes(services: Services): Router {
  const router = Router();
  const signIn = createSiteSignIn(services.db, services.config);
  const { config } = services;

  router.get(KEYS_PAGE_PATH, (_req, res) => {
    // The same page for everyone: what is the member's, the page's script asks /api/me for.
    res
      .set('Cache-Control', 'no-cache')
      .type('html')
      .send(keysPage(signIn !== undefined));
  });

  router.get(SIGN_IN_PATH, async (req: Request, res: Response) => {
    if (!signIn) {
      res
        .status(404)
        .type('html')
        .send(
          notFoundPage(
            req.path,
            'This site has no sign-in: paste a key on /settings/keys instead.',
          ),
        );
      return;
    }
    try {
      const { url, state } = await signIn.begin(localPath(req.query.return));
      res
        .set(NOT_STORED)
        .append('Set-Cookie', siteCookie(config, SIGN_IN_COOKIE, state, SIGN_IN_MINUTES * 60))
        .redirect(302, url);
    } catch (error) {
      failed(req, res, error, services);
    }
  });

  router.get(CALLBACK_PATH, async (req: Request, res: Response) => {
    if (!signIn) {
      res.status(404).type('html').send(notFoundPage(req.path));
      return;
    }
    try {
      const state = cookieOf(req, SIGN_IN_COOKIE);
      if (!state || req.query.state !== state)
        throw new AppError(
          'UNAUTHENTICATED',
          'This sign-in was not started in this browser; start it again.',
        );
      const { account, returnTo } = await signIn.finish(
        new URL(req.originalUrl, config.publicUrl),
        state,
      );
      const token = await startSession(services.db, account);
      res
        .set(NOT_STORED)
        .append('Set-Cookie', [sessionCookie(config, token), clearedCookie(config, SIGN_IN_COOKIE)])
        .redirect(303, returnTo);
    } catch (error) {
      failed(req, res, error, services);
    }
  });

  router.post(SIGN_OUT_PATH, async (req: Request, res: Response) => {
    try {
      if (!fromOwnPages(req, config.publicUrl))
        throw new AppError('ORIGIN_NOT_ALLOWED', 'Sign out from this site\u2019s own pages.');
      const token = cookieOf(req, SESSION_COOKIE);
      if (token) await endSession(services.db, token);
      res
        .set(NOT_STORED)
        .append('Set-Cookie', clearedCookie(config, SESSION_COOKIE))
        .redirect(303, '/');
    } catch (error) {
      failed(req, res, error, services);
    }
  });

  return router;
}
