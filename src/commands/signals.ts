import { type Logger, stopWaitingForLogReader } from '../logger.js';

/** However closing or the logs go, the process is gone this long after the signal. */
export const SHUTDOWN_LIMIT_MS = 9_000;

/** Waits for the logged lines to be written, but never longer than `ms`. */
const flushed = (logger: Logger, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * SIGTERM and SIGINT close what runs, then exit 0 (1 when closing failed), with the logs flushed
 * when their reader takes them. A hard timer (unref'd: it never keeps the process up by itself)
 * exits within SHUTDOWN_LIMIT_MS whatever the closing or the logger do. Only the first signal
 * closes: a terminal's Ctrl+C reaches both `npm start` and the service, and a supervisor may send
 * SIGTERM after it, so later signals are logged and left to the closing already under way.
 */
export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    closing = true;
    let status = 1;
    setTimeout(() => {
      stopWaitingForLogReader();
      process.exit(status);
    }, SHUTDOWN_LIMIT_MS).unref();
    logger.info({ signal }, 'shutting down: finishing in-flight work');
    try {
      await close();
      status = 0;
      logger.info('stopped');
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
    }
    await flushed(logger, 2_000);
    stopWaitingForLogReader();
    process.exit(status);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
