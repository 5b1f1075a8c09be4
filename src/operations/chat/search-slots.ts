import { AppError } from '../../app-error.js';
import type { TraceScope } from '../../telemetry/active-span.js';
import { type QueueName, waitSpan, workSpan } from '../../telemetry/work-spans.js';

/** How long an uncached search waits for a free slot before it is answered 503. */
export const SEARCH_WAIT_MS = 2_000;
const RETRY_AFTER_SECONDS = 1;

/**
 * At most `limit` uncached chat searches run at once in this process (each scans messages); the
 * rest queue for a free slot up to `waitMs`, then fail with BUSY (503, Retry-After). Thumbnail
 * renders queue the same way (src/pages/thumbnails/thumbnails.ts), with their own message.
 */
export interface SearchSlots {
  /** Runs `work` in a slot; in a traced request, its wait and its turn are spans below `scope`. */
  run<T>(work: (scope: TraceScope | undefined) => Promise<T>, scope?: TraceScope): Promise<T>;
}

export function createSearchSlots(
  limit: number,
  waitMs = SEARCH_WAIT_MS,
  busyMessage = 'Too many chat searches are running; please retry shortly.',
  queue: QueueName = 'chat.search',
): SearchSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const acquire = () =>
    new Promise<void>((resolve, reject) => {
      if (running < limit) {
        running++;
        resolve();
        return;
      }
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(grant);
        if (index >= 0) waiting.splice(index, 1);
        reject(new AppError('BUSY', busyMessage, { retryAfter: RETRY_AFTER_SECONDS }));
      }, waitMs);
      waiting.push(grant);
    });
  return {
    async run(work, scope) {
      await waitSpan(queue, scope, acquire);
      try {
        return await workSpan(queue, scope, work);
      } finally {
        release();
      }
    },
  };
}
