import type { Request, RequestHandler, Response } from 'express';
import { observeIn, type Services } from '../context.js';
import { queryParams } from '../http/query-params.js';
import { operationRoute } from '../http/respond.js';
import {
  type AnyOperation,
  queryNamesOf,
  type RestAnswer,
  type RouteSpec,
} from '../http/routes/index.js';
import { subscribeChatMessages } from '../operations/chat/live/index.js';
import type { LiveFeed } from '../operations/chat/live/subscriber.js';
import { subscribeWorks } from '../operations/events/subscribe-works.js';
import { runOperation } from '../operations/operation.js';
import { sendChatPage } from './chat-page.js';
import {
  chatStreamFormat,
  lastEventId,
  type StreamFormat,
  sendEventStream,
} from './event-stream.js';
import { worksStreamFormat } from './works-stream.js';

/** A REST route on /metrics: labelled by its method and path template (its span is the operation's own). */
export const restUnit = (route: Pick<RouteSpec, 'method' | 'path'>) => ({
  face: 'rest' as const,
  name: `${route.method} ${route.path}`,
});

type Answer = (
  res: Response,
  result: unknown,
  req: Request,
  services: Services,
  operation: AnyOperation,
) => void;

/** How the feed of each streaming operation is written as Server-Sent Events. */
const streamFormats = new Map<AnyOperation, StreamFormat<never>>([
  [subscribeChatMessages, chatStreamFormat as StreamFormat<never>],
  [subscribeWorks, worksStreamFormat as StreamFormat<never>],
]);

/** What the reference's GET reads send: the answer is never to be cached (a read counts a hit). */
const NOT_CACHED = {
  'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0',
  Pragma: 'no-cache',
  Expires: '0',
};

/** The headers a plain JSON answer of each kind carries beside its body (src/rest/read-routes.ts sends them too). */
export const answerHeaders: Record<'ok' | 'read', Record<string, string>> = {
  ok: {},
  read: NOT_CACHED,
};

const answers: Record<RestAnswer, Answer> = {
  /** 201 for new content, 200 for content that already existed (`cached`). */
  created: (res, result) => {
    res.status((result as { cached: boolean }).cached ? 200 : 201).json(result);
  },
  ok: (res, result) => {
    res.status(200).set(answerHeaders.ok).json(result);
  },
  read: (res, result) => {
    res.status(200).set(answerHeaders.read).json(result);
  },
  'cached-page': (res, result) => sendChatPage(res, result as Parameters<typeof sendChatPage>[1]),
  private: (res, result) => {
    res.status(200).set('Cache-Control', 'private, no-store').json(result);
  },
  'no-content': (res) => {
    res.status(204).set('Cache-Control', 'no-store').end();
  },
  'event-stream': (res, result, req, services, operation) => {
    const format = streamFormats.get(operation);
    if (!format) throw new Error(`no stream format for ${operation.name}`);
    sendEventStream(req, res, result as LiveFeed<never>, services, format);
  },
};

/** The express handler of a REST row of the route table: run its operation, answer as the row says. */
export function operationHandler(services: Services, route: RouteSpec): RequestHandler {
  const { serve } = route;
  if (serve.face !== 'rest') throw new Error(`${route.path} is not served by the REST face`);
  const names = queryNamesOf(route);
  const answer = answers[serve.answer];
  const unit = restUnit(route);
  return operationRoute(services, async (ctx, req, res) => {
    const input =
      serve.from === 'body' ? req.body : { ...queryParams(req.query, names), ...req.params };
    // A reconnecting EventSource names the last event it received: it resumes after it.
    const resumed = serve.answer === 'event-stream' ? lastEventId(req) : undefined;
    const result = await observeIn(ctx, unit, (ctx) =>
      runOperation(serve.operation, ctx, resumed ? { ...input, after: resumed } : input),
    );
    answer(res, result, req, services, serve.operation);
  });
}
