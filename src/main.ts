import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from './app.js';
import { createAuthenticator } from './auth/authenticator.js';
import type { Config } from './config.js';
import { connectDatabase } from './db/client.js';
import type { EmbeddedMongo } from './db/embedded/index.js';
import { embeddedDataDir, embeddedEndpointFile } from './db/embedded/location.js';
import { startServiceDatabase } from './db/embedded/service-database.js';
import { syncCodeRegistry } from './db/code-registry.js';
import { ensureIndexes } from './db/indexes.js';
import type { Logger } from './logger.js';
import { createChatCache } from './resolvers/chat/index.js';
import type { Services } from './resolvers/context.js';
import { createMetrics } from './metrics.js';
import { createPublishRateLimiter } from './rate-limit/index.js';
import { createStorage } from './storage/index.js';

export interface RunningService {
  url: string;
  services: Services;
  server: Server;
  close(): Promise<void>;
}

async function startEmbedded(config: Config, logger: Logger): Promise<EmbeddedMongo> {
  const embedded = await startServiceDatabase(config.dataDir, logger);
  logger.info({ dataDir: embeddedDataDir(config.dataDir) }, 'embedded database started');
  return embedded;
}

/** Composition root: config -> database -> services -> app -> listening server. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const embedded = config.mongodbUri ? undefined : await startEmbedded(config, logger);
  const db = await connectDatabase(
    config.mongodbUri ?? (embedded as EmbeddedMongo).uri,
    config.mongodbDb,
  );
  await ensureIndexes(db.db, logger, { chatIndexes: config.chatIndexes });
  const registered = await syncCodeRegistry(db);
  if (registered > 0) logger.info({ registered }, 'existing codes added to the code registry');

  // Listen first, so a configuration that follows the port (PORT=0) knows its real address.
  // headersTimeout may not exceed requestTimeout (Node refuses to start otherwise), and both are
  // only enforced when Node sweeps its connections (every 30 s by default): sweep 4 times per timeout.
  const server = createServer({
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: Math.min(10_000, config.requestTimeoutMs),
    connectionsCheckingInterval: Math.min(
      30_000,
      Math.max(100, Math.ceil(config.requestTimeoutMs / 4)),
    ),
  });
  server.listen(config.port, config.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const settled = config.publicUrlFollowsPort
    ? { ...config, publicUrl: `http://localhost:${port}` }
    : config;

  const services: Services = {
    config: settled,
    db,
    logger,
    storage: createStorage(settled, logger),
    auth: createAuthenticator(db, settled.auth),
    publishLimiter: createPublishRateLimiter(settled, db),
    metrics: createMetrics(),
    chatCache: createChatCache(),
  };
  server.on('request', createRequestListener(services));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await stopped;
      await db.close();
      if (embedded) {
        await rm(embeddedEndpointFile(config.dataDir), { force: true });
        await embedded.close();
      }
    })());

  return { url, services, server, close };
}
