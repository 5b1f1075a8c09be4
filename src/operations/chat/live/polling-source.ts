import type { Collection, Document, ObjectId } from 'mongodb';
import { QUERY_TIME_LIMIT_MS } from '../../../db/client.js';
import type { Logger } from '../../../logger.js';
import type { ChatPosition } from '../cursor.js';
import type { ChatFeedSource } from './events.js';

/** Rows read per poll; a full batch is followed by another read at once. */
const POLL_BATCH = 500;

/** A collection whose documents have an ObjectId `_id` and a `when` date (chat messages, work events). */
type Timed = { _id: ObjectId; when: Date };

export interface PollingSourceOptions<E> {
  // biome-ignore lint/suspicious/noExplicitAny: any collection whose documents are Timed
  collection: Collection<any>;
  /** What the logs call it: the chat channel, or the works stream. */
  label: string;
  /** The fields `toEntry` reads. */
  projection: Document;
  toEntry(doc: Document): E;
  intervalMs: number;
  logger: Logger;
}

/** Where a polling source delivers what it read, in `(when, _id)` order. */
export interface PollingSink<E> {
  added(entries: E[]): Promise<void>;
}

/** A message committed this long after a newer one (two writers, one slower) is still found. */
export const LATE_WINDOW_MS = 2_000;

/**
 * Polls one collection (a chat channel, the work events) for new documents, in `(when, _id)` order, every `intervalMs`. It starts after
 * the newest stored message. Each read also covers the last LATE_WINDOW_MS before the newest
 * message seen, less the messages already delivered there, so a message committed late with an
 * older `when` is delivered too (after newer ones). A failed read (the database away) leaves
 * the position where it was: the next successful read delivers everything missed. It delivers
 * additions only: a message marked deleted later is not noticed.
 */
export function pollingSource<E>(
  options: PollingSourceOptions<E>,
  sink: PollingSink<E>,
): ChatFeedSource {
  const { collection, label, projection, intervalMs, logger } = options;
  let position: ChatPosition | null | undefined; // undefined: not read yet; null: empty channel
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failing = false;

  /** Ids delivered (or present at start) within the window, by their `when` in ms. */
  const recent = new Map<string, { id: ObjectId; when: number }>();
  const remember = (id: ObjectId, when: Date) =>
    recent.set(id.toHexString(), { id, when: when.getTime() });
  const forgetBefore = (limit: number) => {
    for (const [key, entry] of recent) if (entry.when < limit) recent.delete(key);
  };
  const windowStart = () => new Date((position?.when.getTime() ?? 0) - LATE_WINDOW_MS);

  async function start(): Promise<void> {
    const [row] = await collection
      .find({}, { sort: { when: -1, _id: -1 }, limit: 1, projection: { when: 1 } })
      .toArray();
    position = row && row.when instanceof Date ? { when: row.when, id: row._id } : null;
    if (!position) return;
    const present = await collection
      .find({ when: { $gte: windowStart() } }, { projection: { when: 1 } })
      .toArray();
    for (const doc of present) remember(doc._id, doc.when);
  }

  /** One read; true when a full batch came back (read again at once). */
  async function pollOnce(): Promise<boolean> {
    const rows: Timed[] = await collection
      .find(
        {
          deleted: { $ne: true },
          when: { $gte: windowStart() },
          _id: { $nin: [...recent.values()].map((entry) => entry.id) },
        },
        {
          sort: { when: 1, _id: 1 },
          limit: POLL_BATCH,
          batchSize: POLL_BATCH + 1,
          projection,
          maxTimeMS: QUERY_TIME_LIMIT_MS,
        },
      )
      .toArray();
    const last = rows.at(-1);
    if (!last) return false;
    await sink.added(rows.map((row) => options.toEntry(row)));
    for (const row of rows) remember(row._id, row.when);
    const newest = position;
    if (
      !newest ||
      last.when > newest.when ||
      (last.when.getTime() === newest.when.getTime() &&
        last._id.toHexString() > newest.id.toHexString())
    )
      position = { when: last.when, id: last._id };
    forgetBefore(windowStart().getTime());
    return rows.length === POLL_BATCH;
  }

  async function tick(): Promise<void> {
    const started = performance.now();
    try {
      while (!stopped && (await pollOnce()));
      if (failing) logger.info({ source: label }, 'live polling reads again');
      failing = false;
    } catch (error) {
      if (!failing)
        logger.warn(
          { source: label, err: error },
          'live polling failed; retrying at each interval',
        );
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
    await start();
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
