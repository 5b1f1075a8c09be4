import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { startEmbeddedMongo } from '../db/embedded/index.js';
import { embeddedDataDir } from '../db/embedded/location.js';
import { createLogger } from '../logger.js';
import { closeOnSignals } from './signals.js';
import { UsageError } from './usage-error.js';

const usage = `Usage: publish-gateway db [--port 27017] [--host 127.0.0.1] [--data-dir <dir>]

Runs the embedded MongoDB-compatible server on its own, for mongosh, tools or another
service. --data-dir defaults to $DATA_DIR/db (./data/db). Clients must authenticate
(SCRAM-SHA-256): the credentials are generated on first start into <data-dir>/credentials.json,
and <data-dir>/endpoint.json (0600) holds the full connection string while the server runs.
SIGINT or SIGTERM closes the data files and exits.
`;

export async function dbCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be a port number.\n${usage}`);
  const dataDir = values['data-dir'] ?? embeddedDataDir(loadConfig().dataDir);

  const logger = createLogger('info');
  const server = await startEmbeddedMongo({
    host: values.host,
    port,
    dataDir,
    logger,
    authenticate: true,
    endpointFile: join(dataDir, 'endpoint.json'),
  });
  closeOnSignals(logger, server.close);
}
