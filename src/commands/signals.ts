import type { Logger } from '../logger.js';

/** SIGTERM and SIGINT close what runs, then exit 0 (1 when closing failed), with the logs flushed. */
export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight work');
    try {
      await close();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      logger.flush();
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
