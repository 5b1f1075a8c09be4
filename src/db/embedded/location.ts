import { join } from 'node:path';

/** Where the service keeps its embedded database under DATA_DIR. */
export const embeddedDataDir = (dataDir: string) => join(dataDir, 'db');

/** Where a running service leaves the address of its embedded database for one-off commands. */
export const embeddedEndpointFile = (dataDir: string) =>
  join(embeddedDataDir(dataDir), 'endpoint.json');

/** The Unix socket the service's embedded database listens on (the directory is 0700). */
export const embeddedSocketPath = (dataDir: string) =>
  join(embeddedDataDir(dataDir), 'mongod.sock');
