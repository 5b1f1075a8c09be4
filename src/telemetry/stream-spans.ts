import { ROOT_CONTEXT, type Span, SpanKind } from '@opentelemetry/api';
import type { TraceScope } from './active-span.js';

/** A live feed as the chat streams read it (src/operations/chat/live/subscriber.ts). */
export interface Feed<T> extends AsyncIterableIterator<T> {
  return(): Promise<IteratorResult<T>>;
}

/**
 * A live stream in a traced request: the request's span ends as the stream starts (a stream may
 * stay open for hours), and each event the reader takes is a span of its own, `<name> deliver`,
 * in a new trace linked to the request's: from when the event is handed over until the reader
 * asks for the next one (once it has written it out). Untraced, the feed is returned as it is.
 */
export function tracedDeliveries<T>(
  feed: Feed<T>,
  name: string,
  scope: TraceScope | undefined,
): Feed<T> {
  if (!scope) return feed;
  const { request } = scope;
  const { tracer } = request;
  request.end();
  const link = { context: request.span.spanContext() };
  let delivering: Span | undefined;
  const delivered = () => {
    delivering?.end();
    delivering = undefined;
  };
  const traces: Feed<T> = {
    async next() {
      delivered();
      const result = await feed.next();
      if (!result.done)
        delivering = tracer.startSpan(
          `${name} deliver`,
          {
            kind: SpanKind.PRODUCER,
            links: [link],
            attributes: { 'messaging.batch.message_count': 1 },
          },
          ROOT_CONTEXT,
        );
      return result;
    },
    async return() {
      delivered();
      return feed.return();
    },
    [Symbol.asyncIterator]: () => traces,
  };
  return traces;
}
