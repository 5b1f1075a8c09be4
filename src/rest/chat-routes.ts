import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Router } from 'express';
import {
  CHAT_CACHE_TTL_MS,
  chatPageKey,
  listChatMessages,
  listChatMessagesInput,
  type ChatPage,
} from '../operations/chat/index.js';
import type { Services } from '../context.js';
import { parseInput } from '../operations/validation.js';
import { queryParams } from '../http/query-params.js';
import { methodNotAllowed, operationRoute } from '../http/respond.js';

const CHAT_PATHS = ['/chat-messages', '/chat/messages'];
const CHAT_PARAMS = ['instance', 'limit', 'before', 'search', 'q', 'from'] as const;
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

export function mountChatRoutes(router: Router, services: Services): void {
  const read = operationRoute(services, async (ctx, req, res) => {
    const page = await listChatMessages(
      ctx,
      parseInput(listChatMessagesInput, queryParams(req.query, CHAT_PARAMS)),
    );
    const sent = serialize(page);
    res.set({ 'Cache-Control': cacheControl, ETag: sent.etag }).type('json');
    sent.headers ??= { ...res.getHeaders(), 'content-length': Buffer.byteLength(sent.body) };
    res.send(sent.body);
  });
  for (const path of CHAT_PATHS) {
    router.get(path, read);
    router.all(path, methodNotAllowed(['GET']));
  }
}

const replayPaths = new Set(CHAT_PATHS.map((path) => `/api${path}`));

/**
 * Answers a cache hit before express, with the headers and bytes express sent for that page;
 * false for anything express must see: another method, a token to check, a conditional
 * request, an invalid query, a page not cached or not yet sent by express.
 */
export function replayCachedChatPage(
  services: Services,
): (req: IncomingMessage, res: ServerResponse) => boolean {
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
    if (!replayPaths.has(mark === -1 ? url : url.slice(0, mark))) return false;
    const input = listChatMessagesInput.safeParse(
      queryParams(parseQuery(mark === -1 ? '' : url.slice(mark + 1)), CHAT_PARAMS),
    );
    const page = input.success ? services.chatCache.peek(chatPageKey(input.data)) : undefined;
    const sent = page && sentPages.get(page);
    if (!sent?.headers) return false;
    res.writeHead(200, sent.headers).end(sent.body);
    return true;
  };
}
