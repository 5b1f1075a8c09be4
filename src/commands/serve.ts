import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { closeOnSignals } from './signals.js';
import { parseCommandArgs } from './usage-error.js';

const usage = `Usage: publish-gateway [serve]

Starts the service (GraphQL, REST, MCP and the pages) on PORT, configured by the environment
(publish-gateway --help lists it). SIGINT or SIGTERM closes it.
`;

export async function serveCommand(argv: string[]): Promise<void> {
  if (!parseCommandArgs(argv, usage, {}, { positionals: false })) return;
  // Loaded once the arguments are read, so that --help answers at once.
  const { startService } = await import('../service.js');
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  // Before the line that says it listens: whoever reads that line may signal at once.
  closeOnSignals(logger, service.close);
  logger.info(
    { url: service.url, publicUrl: service.services.config.publicUrl },
    'publish-gateway listening',
  );
}
