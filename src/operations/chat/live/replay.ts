import { AppError } from '../../../app-error.js';
import type { LiveFeed } from './subscriber.js';

/** Items read back per round trip after a reconnect. */
export const REPLAY_PAGE = 100;
/**
 * Most items replayed on one connection; a subscriber further behind gets these, then
 * SUBSCRIBER_BEHIND with the cursor to reconnect after, and continues on its next connection.
 */
export const REPLAY_MAX = 1_000;

/** How a replay reads what a client missed, and turns it into the events of its live feed. */
export interface ReplayReader<T, P, E> {
  /** Up to `size` stored items after `position`, oldest first, the subscriber's filters applied. */
  read(position: P, size: number): Promise<T[]>;
  positionOf(item: T): P;
  cursorOf(position: P): string;
  /** The item's id, and the id of a live event's item (undefined when it carries none). */
  idOf(item: T): string;
  liveIdOf(event: E): string | undefined;
  event(item: T, cursor: string): E;
  /** What is replayed, for the error's message ("messages", "works"). */
  what: string;
}

/**
 * Reads the first page of the replay before answering (so a database that is away answers
 * 503 before the stream starts); the live events buffered meanwhile follow the replay, without
 * the items the replay already gave.
 */
export async function replayThenLive<T, P, E>(
  reader: ReplayReader<T, P, E>,
  after: P,
  live: LiveFeed<E>,
): Promise<LiveFeed<E>> {
  const replayed = new Set<string>();
  let position = after;
  let pending: T[] = [];
  let exhausted = false;
  let finished = false;

  async function readPage(): Promise<void> {
    pending = await reader.read(position, REPLAY_PAGE);
    exhausted = pending.length < REPLAY_PAGE;
  }
  try {
    await readPage();
  } catch (error) {
    await live.return();
    throw error;
  }

  const feed: LiveFeed<E> = {
    async next(): Promise<IteratorResult<E>> {
      if (finished) return { value: undefined, done: true };
      if (pending.length === 0 && !exhausted) {
        if (replayed.size >= REPLAY_MAX) {
          await feed.return();
          throw new AppError(
            'SUBSCRIBER_BEHIND',
            `More than ${REPLAY_MAX} ${reader.what} were missed; reconnect after the last one to read on.`,
            { resumeAfter: reader.cursorOf(position) },
          );
        }
        await readPage();
      }
      const item = pending.shift();
      if (item) {
        replayed.add(reader.idOf(item));
        position = reader.positionOf(item);
        return { value: reader.event(item, reader.cursorOf(position)), done: false };
      }
      for (;;) {
        const result = await live.next();
        if (result.done) return result;
        const id = reader.liveIdOf(result.value);
        if (id !== undefined && replayed.has(id)) continue;
        return result;
      }
    },
    async return() {
      finished = true;
      return live.return();
    },
    [Symbol.asyncIterator]() {
      return feed;
    },
  };
  return feed;
}
