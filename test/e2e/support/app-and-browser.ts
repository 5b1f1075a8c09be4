import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from '../../support/app.js';
import { type Browser, INSTALL_TIMEOUT_MS, launchBrowser } from './browser.js';
import { buildClientBundles } from './client-bundles.js';

export interface AppAndBrowser {
  readonly app: TestApp;
  readonly browser: Browser;
}

/**
 * A test file's app (started with `env`) and Chromium: started before its tests, closed after
 * them. `bundles` builds the browser bundles first, for pages that load the player.
 */
export function useAppAndBrowser(
  env: Record<string, string> = {},
  options: { bundles?: boolean } = {},
): AppAndBrowser {
  const session = {} as { app: TestApp; browser: Browser };
  beforeAll(async () => {
    if (options.bundles === true) buildClientBundles();
    [session.app, session.browser] = await Promise.all([startTestApp(env), launchBrowser()]);
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    await session.browser?.close();
    await session.app?.close();
  });
  return session;
}
