import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startService } from '../main.js';

export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  logger.info({ url: service.url, publicUrl: config.publicUrl }, 'publish-gateway listening');

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await service.close();
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
