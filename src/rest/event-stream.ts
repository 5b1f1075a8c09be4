import type { Request, Response } from 'express';
import { type Services, servicesOfRequest } from '../context.js';
import { toAppError } from '../http/failure.js';
import type { ChatPosition } from '../operations/chat/cursor.js';
import type { ChatEntry } from '../operations/chat/index.js';
import type { LiveChatEvent } from '../operations/chat/live/index.js';
import type { LiveFeed } from '../operations/chat/live/subscriber.js';

/** A comment this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** What an EventSource waits before it reconnects. */
const RETRY_MS = 2_000;

/** The cursor a reconnecting EventSource sends (`Last-Event-ID`), when it sends one. */
export function lastEventId(req: Request): string | undefined {
  const value = req.headers['last-event-id'];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A message as GET /api/chat-messages answers it. */
const messageJson = (entry: ChatEntry) => ({
  id: entry.id,
  from: entry.presented?.from ?? 'anon',
  text: entry.text,
  when: entry.when.toISOString(),
  instance: entry.instance,
  hearts: entry.presented?.hearts ?? 0,
});

/** One event is shared by every subscriber: its fields are serialised once. */
const written = new WeakMap<LiveChatEvent, string>();

/** Additions are `message` events; removals are `removed` events. */
function eventBody(event: LiveChatEvent): string {
  let text = written.get(event);
  if (text === undefined) {
    if (event.type === 'added') text = `data: ${JSON.stringify(messageJson(event.message))}\n\n`;
    else {
      const { id, instance } = event.removal;
      text = `event: removed\ndata: ${JSON.stringify({ id, instance })}\n\n`;
    }
    written.set(event, text);
  }
  return text;
}

const isAfter = (a: ChatPosition, b: ChatPosition) =>
  a.when.getTime() > b.when.getTime() ||
  (a.when.getTime() === b.when.getTime() && a.id.toHexString() > b.id.toHexString());

/**
 * The `id` of each message event: the highest `(when, _id)` cursor the stream has sent. A
 * message that arrives after a newer one (another channel of `all`, or one committed late)
 * keeps the higher id, so a reconnect never replays what the client already has.
 */
function eventIds(): (event: LiveChatEvent) => string {
  let highest: ChatPosition | undefined;
  let highestCursor = '';
  return (event) => {
    if (event.type !== 'added') return '';
    const position = { when: event.message.when, id: event.message._id };
    if (!highest || isAfter(position, highest)) {
      highest = position;
      highestCursor = event.cursor;
    }
    return `id: ${highestCursor}\n`;
  };
}

/** How one stream writes its events: a writer per stream, since `id`s may depend on what it sent. */
export interface StreamFormat<E> {
  writer(): (event: E) => string;
}

/** Chat: `message` events with the highest cursor sent as `id`, and `removed` events. */
export const chatStreamFormat: StreamFormat<LiveChatEvent> = {
  writer() {
    const idOf = eventIds();
    return (event) => idOf(event) + eventBody(event);
  },
};

const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Answers `text/event-stream` with every event of the feed until the client leaves. A feed that
 * fails (a subscriber that fell behind, the database away during a replay) ends the stream with a
 * `close` event carrying the contract's error body (`resumeAfter` when there is one); the client
 * reconnects with its `Last-Event-ID` and misses nothing.
 */
export function sendEventStream<E>(
  req: Request,
  res: Response,
  feed: LiveFeed<E>,
  services: Services,
  format: StreamFormat<E>,
): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  res.write(`retry: ${RETRY_MS}\n: live\n\n`);
  let open = true;
  let corked = false;
  const text = format.writer();
  /** Events taken in one turn (a batch the source delivered) leave in one write. */
  const write = (text: string) => {
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(() => {
        corked = false;
        res.uncork();
      });
    }
    return res.write(text);
  };
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
  const stop = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    void feed.return();
    res.end();
  };
  res.on('close', stop);
  void (async () => {
    try {
      for (;;) {
        const result = await feed.next();
        if (result.done || !open) break;
        if (!write(text(result.value))) await drained(res);
      }
    } catch (error) {
      if (open)
        write(
          `event: close\ndata: ${JSON.stringify(toAppError(error, servicesOfRequest(services, req)).toJSON())}\n\n`,
        );
    } finally {
      stop();
    }
  })();
}
