import { mkdirSync } from 'node:fs';
import { runCommand } from './commands/index.js';
import { Cursors } from './cursors.js';
import { errorReply } from './errors.js';
import { lockDataDir } from './lock.js';
import { Persistence } from './persistence.js';
import { listen, type RequestHandler, type WireServer } from './server.js';
import { Store } from './store.js';
import { type Logger, silentLogger } from './types.js';

export interface EmbeddedMongoOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Where the data lives; null keeps everything in memory. */
  dataDir: string | null;
  logger?: Logger;
}

export interface EmbeddedMongo {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true` */
  uri: string;
  port: number;
  /** Stops listening, closes connections, compacts and flushes the data, releases the lock. */
  close(): Promise<void>;
}

/** Like mongod's TTL monitor. */
const TTL_INTERVAL_MS = 60_000;

interface Storage {
  /** Makes the changes of the command just run durable; throws if it cannot. */
  commit(): void;
  close(): void;
}

/** The data directory, locked and loaded into `store`; nothing at all when it is null. */
function openStorage(dataDir: string | null, store: Store, logger: Logger): Storage {
  if (dataDir === null) return { commit() {}, close() {} };
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let persistence: Persistence;
  try {
    persistence = new Persistence(dataDir, store, logger);
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    commit: () => persistence.commit(),
    close: () => {
      try {
        persistence.close();
      } finally {
        unlock();
      }
    },
  };
}

/** Starts a MongoDB-compatible server (wire protocol, on `bson` and `mingo`) in this process. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const store = new Store();
  const storage = openStorage(options.dataDir, store, logger);
  const cursors = new Cursors();
  const handle: RequestHandler = (request, connectionId) => {
    const reply = runCommand(request.command, request.db, { store, cursors, connectionId });
    try {
      storage.commit();
      return reply;
    } catch (error) {
      return errorReply(error);
    }
  };
  let server: WireServer;
  try {
    server = await listen(host, options.port ?? 0, handle, logger);
  } catch (error) {
    storage.close();
    throw error;
  }
  const ttl = setInterval(() => {
    try {
      if (store.expire(Date.now()) > 0) storage.commit();
    } catch (error) {
      logger.error({ err: error }, 'embedded database: expiring TTL documents failed');
    }
  }, TTL_INTERVAL_MS).unref();

  const address = host.includes(':') ? `[${host}]` : host;
  const uri = `mongodb://${address}:${server.port}/?directConnection=true`;
  logger.info({ uri, dataDir: options.dataDir }, 'embedded database listening');
  let closing: Promise<void> | undefined;
  return {
    uri,
    port: server.port,
    close: () =>
      (closing ??= (async () => {
        clearInterval(ttl);
        await server.close();
        storage.close();
      })()),
  };
}
