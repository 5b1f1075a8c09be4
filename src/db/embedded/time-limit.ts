import { CommandError } from './errors.js';

export const maxTimeExpired = () =>
  new CommandError(50, 'MaxTimeMSExpired', 'operation exceeded time limit');

/**
 * A command's `maxTimeMS`, counted only while it runs (a cursor's batches add up, the time
 * between them does not). `check` is called inside scans and throws once the time is spent.
 */
export class TimeLimit {
  #spentMs = 0;
  #since: number | undefined;

  constructor(readonly limitMs: number) {}

  static of(maxTimeMS: unknown): TimeLimit | undefined {
    return typeof maxTimeMS === 'number' && maxTimeMS > 0 ? new TimeLimit(maxTimeMS) : undefined;
  }

  resume(): void {
    this.#since = performance.now();
  }

  pause(): void {
    if (this.#since !== undefined) this.#spentMs += performance.now() - this.#since;
    this.#since = undefined;
  }

  /** What is left of the limit (while it runs). */
  remainingMs(): number {
    const running = this.#since === undefined ? 0 : performance.now() - this.#since;
    return Math.max(0, this.limitMs - this.#spentMs - running);
  }

  /** Called for every key and document a scan examines. */
  check(): void {
    if (this.#since === undefined) return;
    if (this.#spentMs + performance.now() - this.#since > this.limitMs) throw maxTimeExpired();
  }
}
