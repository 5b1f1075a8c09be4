import type { Document } from 'bson';

/** How long a scan runs before it lets the other commands waiting in the event loop run. */
export const SLICE_MS = 4;
/** The clock is read once per this many keys or documents examined. */
const CHECK_EVERY = 64;

/**
 * What a sliced scan yields instead of a document when its slice is over: the reader (./cursors.ts)
 * waits for the next turn of the event loop, then asks for the next document again. Only a scan
 * given `Slices` (./planner.ts) ever yields it.
 */
export const PAUSE: Document = Object.freeze({});

/**
 * Time slices of one command's scan. The engine runs every command on one thread: a scan that
 * examines a million documents would hold up every page read behind it; in slices, the reads
 * that arrive meanwhile run between them (the LMDB read snapshot stays the scan's own).
 */
export class Slices {
  #end = 0;
  #count = 0;

  /** Starts a slice: now, and again after each pause. */
  start(): void {
    this.#end = performance.now() + SLICE_MS;
    this.#count = 0;
  }

  /** Called for every key or document examined: whether the slice is over. */
  due(): boolean {
    if (++this.#count < CHECK_EVERY) return false;
    this.#count = 0;
    return performance.now() > this.#end;
  }
}

/** The next turn of the event loop, after the I/O (other connections' commands) waiting now. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
