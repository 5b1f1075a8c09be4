import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Response } from 'express';
import type { Services } from '../context.js';
import { queryParams } from '../http/query-params.js';
import { pathsOf, queryNamesOf, routeTable } from '../http/routes/index.js';
import {
  CHAT_CACHE_TTL_MS,
  type ChatPage,
  chatPageKey,
  listChatMessages,
} from '../operations/chat/index.js';

const cacheControl = `public, max-age=${CHAT_CACHE_TTL_MS / 1000}`;

interface SentPage {
  body: string;
  etag: string;
  /** Every header express sent with it (security, CORS, caching), for replays. */
  headers?: OutgoingHttpHeaders;
}

/** A cached page is one object for two minutes: it is serialised once, and what was sent is kept with it. */
const sentPages = new WeakMap<ChatPage, SentPage>();

function serialize(page: ChatPage): SentPage {
  let sent = sentPages.get(page);
  if (!sent) {
    const body = JSON.stringify(page);
    sent = { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
    sentPages.set(page, sent);
  }
  return sent;
}

/** A chat page with its caching headers; what express sent is kept for replays. */
export function sendChatPage(res: Response, page: ChatPage): void {
  const sent = serialize(page);
  res.set({ 'Cache-Control': cacheControl, ETag: sent.etag }).type('json');
  sent.headers ??= { ...res.getHeaders(), 'content-length': Buffer.byteLength(sent.body) };
  res.send(sent.body);
}

/**
 * Answers a cache hit before express, with the headers and bytes express sent for that page;
 * false for anything express must see: another method, a token to check, a conditional
 * request, an invalid query, a page not cached or not yet sent by express.
 */
export function replayCachedChatPage(
  services: Services,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const route = routeTable(services.config.publicUrl).find(
    (spec) => spec.serve.face === 'rest' && spec.serve.operation === listChatMessages,
  );
  if (!route) throw new Error('the route table has no chat page route');
  const paths = new Set(pathsOf(route));
  const names = queryNamesOf(route);
  return (req, res) => {
    if (
      req.method !== 'GET' ||
      req.headers.authorization ||
      req.headers['if-none-match'] ||
      req.headers['if-modified-since']
    )
      return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    if (!paths.has(mark === -1 ? url : url.slice(0, mark))) return false;
    const input = listChatMessages.input.safeParse(
      queryParams(parseQuery(mark === -1 ? '' : url.slice(mark + 1)), names),
    );
    const page = input.success ? services.chatCache.peek(chatPageKey(input.data)) : undefined;
    const sent = page && sentPages.get(page);
    if (!sent?.headers) return false;
    res.writeHead(200, sent.headers).end(sent.body);
    return true;
  };
}
