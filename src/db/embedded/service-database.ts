import type { EmbeddedMongo } from './index.js';
import { embeddedDataDir, embeddedEndpointFile, embeddedSocketPath } from './location.js';
import { startEmbeddedMongoInWorker } from './threaded.js';
import type { Logger } from './types.js';

/**
 * The service's embedded database: in a worker thread, on a Unix socket inside DATA_DIR/db
 * (0700; socket and files 0600), its connection string left in DATA_DIR/db/endpoint.json
 * (0600) while it runs, for one-off commands and tools such as mongosh.
 */
export function startServiceDatabase(dataDir: string, logger: Logger): Promise<EmbeddedMongo> {
  return startEmbeddedMongoInWorker({
    dataDir: embeddedDataDir(dataDir),
    socketPath: embeddedSocketPath(dataDir),
    endpointFile: embeddedEndpointFile(dataDir),
    logger,
  });
}
