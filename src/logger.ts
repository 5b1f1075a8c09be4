import { type Logger, pino } from 'pino';

export type { Logger };

/** Log bytes held for a reader that does not keep up; lines beyond are dropped (and counted). */
const HELD_MAX_BYTES = 16 * 1024 * 1024;

let droppedLines = 0;
let shuttingDown = false;

/** Log lines lost since the process started: written to a reader that had gone, or held past HELD_MAX_BYTES. */
export const droppedLogLines = () => droppedLines;

/**
 * From now on a full pipe is not waited for: what cannot be written is dropped. Called when the
 * process stops (src/commands/signals.ts), so no log line can hold the exit.
 */
export function stopWaitingForLogReader(): void {
  shuttingDown = true;
}

/**
 * The asynchronous destination, made so that logging can never stop the service: a write that
 * fails (EPIPE once the reader has gone) breaks the destination and every later line is dropped
 * and counted, never retried; a reader that is slow but alive is waited for (EAGAIN) while the
 * service runs, not once it stops. sonic-boom's own flushSync at exit retries a failed write
 * every 100 ms for ever, so a broken destination skips it.
 */
function destinationOn(fd: number) {
  const stream = pino.destination({
    dest: fd,
    sync: false,
    maxLength: HELD_MAX_BYTES,
    retryEAGAIN: () => !shuttingDown,
  });
  const drop = () => {
    droppedLines++;
    return true;
  };
  const flushSync = stream.flushSync.bind(stream);
  stream.on('drop', () => void droppedLines++);
  stream.on('error', () => {
    stream.write = drop;
    stream.flushSync = () => {};
  });
  stream.flushSync = () => {
    if (shuttingDown) return;
    try {
      flushSync();
    } catch {
      stream.write = drop;
    }
  };
  return stream;
}

/**
 * The service's logger: JSON lines. A traced request's services log through a child carrying its
 * `trace_id` and `span_id` (src/context.ts).
 */
export function createLogger(level: string, destination: number = 1): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destinationOn(destination),
  );
}
