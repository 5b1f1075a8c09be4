import type { Collection } from 'mongodb';
import { QUERY_TIME_LIMIT_MS } from '../../../db/client.js';
import type { ChatRecord } from '../../../db/collections.js';
import type { Logger } from '../../../logger.js';
import type { ChatPosition } from '../cursor.js';
import type { ChatChannel } from '../inputs.js';
import type { ChatFeedSource, ChatSink } from './events.js';
import { storedEntry } from './stored-entry.js';

/** Rows read per poll; a full batch is followed by another read at once. */
const POLL_BATCH = 500;

export interface PollingSourceOptions {
  collection: Collection<ChatRecord>;
  channel: ChatChannel;
  intervalMs: number;
  logger: Logger;
}

const PROJECTION = { user: 1, text: 1, when: 1 } as const;

/**
 * Polls one channel for messages after the last one seen, in `(when, _id)` order, every
 * `intervalMs`. It starts after the newest stored message. A failed read (the database away)
 * leaves the position where it was, so the next successful read delivers everything missed.
 * It delivers additions only: a message marked deleted later is not noticed. A message stored
 * with a `when` older than the newest one already seen is not delivered live either.
 */
export function pollingSource(options: PollingSourceOptions, sink: ChatSink): ChatFeedSource {
  const { collection, channel, intervalMs, logger } = options;
  let position: ChatPosition | null | undefined; // undefined: not read yet; null: empty channel
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failing = false;

  const newest = async (): Promise<ChatPosition | null> => {
    const [row] = await collection
      .find({}, { sort: { when: -1, _id: -1 }, limit: 1, projection: { when: 1 } })
      .toArray();
    return row && row.when instanceof Date ? { when: row.when, id: row._id } : null;
  };

  const after = (at: ChatPosition | null) =>
    at === null
      ? { deleted: { $ne: true } }
      : {
          deleted: { $ne: true },
          when: { $gte: at.when },
          $or: [{ when: { $gt: at.when } }, { _id: { $gt: at.id } }],
        };

  /** One read; true when a full batch came back (read again at once). */
  async function pollOnce(): Promise<boolean> {
    const at = position as ChatPosition | null;
    const rows = await collection
      .find(after(at), {
        sort: { when: 1, _id: 1 },
        limit: POLL_BATCH,
        batchSize: POLL_BATCH + 1,
        projection: PROJECTION,
        maxTimeMS: QUERY_TIME_LIMIT_MS,
      })
      .toArray();
    const last = rows.at(-1);
    if (!last) return false;
    await sink.added(rows.map((row) => storedEntry(row, channel)));
    position = { when: last.when, id: last._id };
    return rows.length === POLL_BATCH;
  }

  async function tick(): Promise<void> {
    const started = performance.now();
    try {
      while (!stopped && (await pollOnce()));
      if (failing) logger.info({ channel }, 'live chat polling reads again');
      failing = false;
    } catch (error) {
      if (!failing)
        logger.warn({ channel, err: error }, 'live chat polling failed; retrying at each interval');
      failing = true;
    }
    // At a steady rate: the time a read took counts toward the interval.
    schedule(Math.max(0, intervalMs - (performance.now() - started)));
  }

  function schedule(delayMs = intervalMs): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick();
    }, delayMs);
  }

  const ready = (async () => {
    position = await newest();
    schedule();
  })();

  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ready.catch(() => undefined);
      await running;
    },
  };
}
