import { basename } from 'node:path';
import express, { type Response, Router } from 'express';
import { html } from '../http/html/html.js';
import { clientBundleDir } from '../http/html/public-dir.js';
import { PIECE_SANDBOX_PATH } from './item-pages.js';

/** The script the sandbox document runs (src/pages/client/piece-sandbox.ts). */
const SANDBOX_SCRIPT = '/assets/piece-sandbox.js';

/**
 * The sandbox document's policy: an opaque origin even if opened directly (`sandbox
 * allow-scripts`), no network at all (`default-src 'none'`: no fetch, no images, no sockets),
 * scripts only from its own bundle and the blob: URLs it makes for the Worker and the piece's
 * module, no stylesheets (its script sets the few styles it needs through the CSSOM), and framed
 * only by this service's own pages.
 */
export const SANDBOX_POLICY = [
  "default-src 'none'",
  "script-src 'self' blob:",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
].join('; ');

const sandboxDocument = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>piece sandbox</title>
</head>
<body>
<canvas id="screen" width="256" height="256"></canvas>
<script src="${SANDBOX_SCRIPT}"></script>
</body>
</html>
`.value;

/**
 * The sandbox document has an opaque origin, so its own script is a cross-origin load for it:
 * that one file says it may be (the service's default resource policy is same-origin).
 */
const bundleHeaders = (res: Response, path: string) => {
  res.set('X-Content-Type-Options', 'nosniff');
  if (basename(path) === basename(SANDBOX_SCRIPT))
    res.set('Cross-Origin-Resource-Policy', 'cross-origin');
};

/**
 * Mounted before the pages' own security headers: the client bundles (dist/public, under
 * /assets beside public/) and the piece sandbox document, which carries a policy of its own.
 */
export function playerRoutes(): Router {
  const router = Router();
  router.use(
    '/assets',
    express.static(clientBundleDir, { index: false, maxAge: '1h', setHeaders: bundleHeaders }),
  );
  router.get(PIECE_SANDBOX_PATH, (_req, res) => {
    res
      .set({
        'Content-Security-Policy': SANDBOX_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      })
      .type('html')
      .send(sandboxDocument);
  });
  return router;
}
