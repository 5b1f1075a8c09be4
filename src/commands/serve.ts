import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startService } from '../service.js';
import { closeOnSignals } from './signals.js';

export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  logger.info(
    { url: service.url, publicUrl: service.services.config.publicUrl },
    'publish-gateway listening',
  );
  closeOnSignals(logger, service.close);
}
