import type { Document } from 'bson';
import { maxTimeExpired, type TimeLimit } from './time-limit.js';

/** How long a scan runs before it lets the other commands waiting in the event loop run. */
export const SLICE_MS = 4;
/** A scan that has run this long is a long one: long scans take turns (ScanQueue). */
const LONG_SCAN_MS = 50;
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
  #start = 0;
  #end = 0;
  #count = 0;
  /** Time run in its slices so far. */
  #ran = 0;

  /** Starts a slice: now, and again after each pause. */
  start(): void {
    this.#start = performance.now();
    this.#end = this.#start + SLICE_MS;
    this.#count = 0;
  }

  /** Ends a slice. */
  stop(): void {
    this.#ran += performance.now() - this.#start;
  }

  get long(): boolean {
    return this.#ran > LONG_SCAN_MS;
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

interface Waiting {
  scan: Slices;
  resume(): void;
}

/**
 * Long scans take turns: one runs its slices (between other commands), the others wait for it
 * to finish its batch, in arrival order. Four scans of a million documents each then answer
 * one after another, as they would alone, instead of all four at the end; a short command, or a
 * scan that has not run long yet, never waits for them. A waiting scan's time limit still runs.
 */
export class ScanQueue {
  #running: Slices | undefined;
  #waiting: Waiting[] = [];

  /** Ends a slice of `scan`; resolves when its next slice may run. */
  pause(scan: Slices, timeLimit: TimeLimit | undefined): Promise<void> {
    scan.stop();
    if (!scan.long || this.#running === scan) return nextTurn();
    if (this.#running === undefined) {
      this.#running = scan;
      return nextTurn();
    }
    return new Promise<void>((resolve, reject) => {
      const remaining = timeLimit?.remainingMs();
      const timer =
        remaining === undefined
          ? undefined
          : setTimeout(() => {
              this.#waiting = this.#waiting.filter((waiting) => waiting !== entry);
              reject(maxTimeExpired());
            }, remaining);
      const entry: Waiting = {
        scan,
        resume: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.#waiting.push(entry);
    });
  }

  /** `scan`'s batch is done (or failed): the next long scan waiting runs. */
  done(scan: Slices): void {
    if (this.#running !== scan) return;
    const next = this.#waiting.shift();
    this.#running = next?.scan;
    next?.resume();
  }
}
