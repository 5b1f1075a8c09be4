import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { type ConnectOptions, connectDatabase, type Database } from '../db/client.js';
import { startEmbeddedMongo } from '../db/embedded/index.js';
import {
  embeddedDataDir,
  embeddedEndpointFile,
  embeddedSocketPath,
} from '../db/embedded/location.js';

/**
 * The database for a one-off command: MONGODB_URI; else the embedded database of a service
 * already running on DATA_DIR; else the embedded database opened here for the command.
 */
export async function connectForCommand(
  config: Config,
  options: Pick<ConnectOptions, 'socketTimeoutMS'> = {},
): Promise<{ db: Database; close(): Promise<void> }> {
  if (config.mongodbUri) {
    const db = await connectDatabase(config.mongodbUri, config.mongodbDb, options);
    return { db, close: () => db.close() };
  }
  const running = await readFile(embeddedEndpointFile(config.dataDir), 'utf8')
    .then((text) => JSON.parse(text) as { uri: string })
    .catch(() => undefined);
  if (running) {
    try {
      const db = await connectDatabase(running.uri, config.mongodbDb, {
        ...options,
        serverSelectionTimeoutMS: 1_000,
      });
      return { db, close: () => db.close() };
    } catch {
      // The service that wrote the file is gone; open the directory ourselves.
    }
  }
  const embedded = await startEmbeddedMongo({
    dataDir: embeddedDataDir(config.dataDir),
    socketPath: embeddedSocketPath(config.dataDir),
  });
  const db = await connectDatabase(embedded.uri, config.mongodbDb, options);
  return {
    db,
    close: async () => {
      await db.close();
      await embedded.close();
    },
  };
}
