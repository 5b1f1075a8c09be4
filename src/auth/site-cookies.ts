import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';
import { SESSION_DAYS } from './sessions.js';

/** The sign-in cookie, and the one that ties a sign-in under way to the browser that started it. */
export const SESSION_COOKIE = 'pgw_session';
export const SIGN_IN_COOKIE = 'pgw_sign_in';

/** The value of one cookie of the request. */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** `Set-Cookie` of a site cookie: HttpOnly, SameSite=Lax, Secure when the site is served over https. */
export function siteCookie(
  config: Pick<Config, 'publicUrl'>,
  name: string,
  value: string,
  maxAgeSeconds: number,
): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export const sessionCookie = (config: Pick<Config, 'publicUrl'>, token: string) =>
  siteCookie(config, SESSION_COOKIE, token, SESSION_DAYS * 86_400);

export const clearedCookie = (config: Pick<Config, 'publicUrl'>, name: string) =>
  siteCookie(config, name, '', 0);
