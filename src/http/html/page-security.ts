import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../../config.js';

type Directives = Record<string, string[] | null>;

const isHttps = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https:');

const insecureUpgrade = (config: Pick<Config, 'publicUrl'>) => (isHttps(config) ? [] : null);

/** The viewer pages: same-origin everything, no inline script or style, no plugins, no framing. */
function pageDirectives(config: Pick<Config, 'publicUrl'>): Directives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'media-src': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'upgrade-insecure-requests': insecureUpgrade(config),
  };
}

/**
 * A page the KidLisp player runs on: its pixel kernels are WebAssembly, which the page's own
 * scripts may compile (`'wasm-unsafe-eval'` allows that and nothing else: no `eval`).
 */
export function playerDirectives(config: Pick<Config, 'publicUrl'>): Directives {
  return { ...pageDirectives(config), 'script-src': ["'self'", "'wasm-unsafe-eval'"] };
}

/**
 * GraphiQL only: its editor (Monaco) and React set inline styles and start web workers; its
 * scripts, workers and fonts still come from this origin alone.
 */
export function graphiqlDirectives(config: Pick<Config, 'publicUrl'>): Directives {
  return {
    ...pageDirectives(config),
    'style-src': ["'self'", "'unsafe-inline'"],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
  };
}

const withoutNull = (directives: Directives) =>
  Object.fromEntries(
    Object.entries(directives).filter((entry): entry is [string, string[]] => entry[1] !== null),
  );

/** The header value, for responses that do not pass through helmet (Yoga's GraphiQL page). */
export function cspHeader(directives: Directives): string {
  return Object.entries(withoutNull(directives))
    .map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name))
    .join('; ');
}

/**
 * Every response's security headers (helmet's defaults), with HSTS and upgrade-insecure-requests
 * only when the service is reached over https: on plain http they would break the next visit.
 */
export const baseSecurity = (config: Pick<Config, 'publicUrl'>): RequestHandler =>
  helmet({
    contentSecurityPolicy: { directives: { 'upgrade-insecure-requests': insecureUpgrade(config) } },
    strictTransportSecurity: isHttps(config),
  }) as RequestHandler;

const helmetFor = (config: Pick<Config, 'publicUrl'>, directives: Directives): RequestHandler =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: withoutNull(directives) },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: isHttps(config),
  }) as RequestHandler;

export const pageSecurity = (config: Pick<Config, 'publicUrl'>) =>
  helmetFor(config, pageDirectives(config));
