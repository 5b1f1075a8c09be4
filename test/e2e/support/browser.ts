import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type ConsoleMessage, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test-results', 'e2e');

/** Without the background-networking flags Chromium keeps dialling hosts this closed network refuses. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Time an install of Debian's chromium may take (apt-get update + download). */
export const INSTALL_TIMEOUT_MS = 15 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Installs Debian's chromium when it is missing (tests run as root here). Test files run in
 * parallel, so one install runs at a time behind a lock directory; the others wait for it.
 */
export async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const lock = join(tmpdir(), 'publish-gateway-chromium-install.lock');
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(CHROMIUM)) return CHROMIUM;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for another test to install chromium (lock ${lock})`);
      await sleep(1_000);
    }
  }
  try {
    if (!existsSync(CHROMIUM)) {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS, env });
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        stdio: 'ignore',
        timeout: INSTALL_TIMEOUT_MS,
        env,
      });
    }
  } catch (error) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM} and could not install it ` +
        `(apt-get update && apt-get install -y chromium, as root): ${(error as Error).message}`,
    );
  } finally {
    rmdirSync(lock);
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium but ${CHROMIUM} does not exist`);
  return CHROMIUM;
}

export interface Browser {
  context: BrowserContext;
  /** A new page that records console errors and CSP violations. */
  newPage(): Promise<Page & { problems: string[] }>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile of its own. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await ensureChromium();
  const userDataDir = await mkdtemp(join(tmpdir(), 'gateway-chromium-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    async newPage() {
      const page = (await context.newPage()) as Page & { problems: string[] };
      page.problems = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error')
          page.problems.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
      // Some refusals (compiling WebAssembly, for one) print nothing: the page's event says them.
      await page.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(
            `Refused by the Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`,
          ),
        ),
      );
      return page;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export const screenshotPath = (name: string) => join(ARTIFACTS, `${name}.png`);
