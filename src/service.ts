import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator } from './auth/authenticator.js';
import { recordTokenHandles } from './auth/handle-claims.js';
import { type Config, defaultPublicUrl } from './config.js';
import type { Services } from './context.js';
import type { Database } from './db/client.js';
import { connectDatabase } from './db/client.js';
import { reservedCodesInUse, sweepOrphanedClaims, syncCodeRegistry } from './db/code-registry.js';
import type { EmbeddedMongo } from './db/embedded/index.js';
import { embeddedDataDir, embeddedEndpointFile } from './db/embedded/location.js';
import { startServiceDatabase } from './db/embedded/service-database.js';
import { registerIndexBuildMetric } from './db/index-build-metric.js';
import { ensureIndexes } from './db/indexes.js';
import { answerClientError } from './http/client-error.js';
import { createRequestListener } from './listener.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createChatCache } from './operations/chat/index.js';
import { createChatHub, probeChangeStreams } from './operations/chat/live/index.js';
import { createSearchSlots } from './operations/chat/search-slots.js';
import { startEvents } from './operations/events/runtime.js';
import { RENDER_BUDGET_MS } from './operations/kidlisp/render-limits.js';
import { stopStoringThumbnails } from './operations/kidlisp/thumbnail-store.js';
import { watchRemovals } from './operations/takedowns/watch.js';
import { createThumbnails } from './pages/thumbnails/thumbnails.js';
import { createPublishRateLimiter } from './rate-limit/index.js';
import { closeWithin, StartupError } from './startup-error.js';
import { createStorage, type ObjectStorage } from './storage/index.js';
import { createTelemetry } from './telemetry/telemetry.js';

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

/** What a process killed mid-publish leaves is swept once it is this old (no publish takes so long). */
export const LEFTOVER_AGE_MS = 5 * 60_000;

/** Code claims without their record, and partial storage writes, left by a killed process. */
async function sweepLeftovers(db: Database, storage: ObjectStorage, logger: Logger): Promise<void> {
  const olderThan = new Date(Date.now() - LEFTOVER_AGE_MS);
  // Storage being away must not keep the service from starting: its leftovers wait for the next start.
  const [claims, temporaries] = await Promise.all([
    sweepOrphanedClaims(db, olderThan),
    storage.sweepTemporaries(olderThan).catch((error: unknown) => {
      logger.warn({ err: error }, 'storage temporaries not swept');
      return 0;
    }),
  ]);
  if (claims + temporaries > 0)
    logger.info({ claims, temporaries }, 'leftovers of an interrupted publish removed');
}

/** The metrics, with the embedded database's background index builds (src/db/index-build-metric.ts). */
function withIndexBuilds(metrics: Metrics, db: Database, embedded: boolean): Metrics {
  if (embedded) registerIndexBuildMetric(metrics.registry, db.db);
  return metrics;
}

/** Composition root: config -> database -> services -> app -> listening server. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const embedded = config.mongodbUri
    ? undefined
    : await startEmbedded(config, logger).catch((error: unknown) => {
        throw new StartupError(error);
      });
  try {
    return await startOn(config, logger, embedded);
  } catch (error) {
    // A start that fails stops its database too, so the process can exit (it would hang else).
    if (embedded) await closeWithin(embedded.close);
    throw new StartupError(error);
  }
}

async function startOn(
  config: Config,
  logger: Logger,
  embedded: EmbeddedMongo | undefined,
): Promise<RunningService> {
  const metrics = createMetrics();
  const telemetry = await createTelemetry(metrics.operations, logger);
  const db = await connectDatabase(
    config.mongodbUri ?? (embedded as EmbeddedMongo).uri,
    config.mongodbDb,
  );
  await ensureIndexes(db.db, logger, {
    chatIndexes: config.chatIndexes,
    embedded: embedded !== undefined,
  });
  const registered = await syncCodeRegistry(db);
  if (registered > 0) logger.info({ registered }, 'existing codes added to the code registry');
  const handles = await recordTokenHandles(db, logger);
  if (handles > 0) logger.info({ handles }, 'token handles recorded in @handles');
  const storage = createStorage(config, logger);
  await sweepLeftovers(db, storage, logger);
  const shadowed = await reservedCodesInUse(db);
  if (shadowed.length > 0)
    logger.warn(
      { codes: shadowed },
      'stored codes equal to paths of this service: those paths answer, not the items',
    );
  const changeStreams =
    config.liveChat.source === 'auto' && (await probeChangeStreams(db.chat.system));
  if (!changeStreams && config.liveChat.source === 'auto')
    logger.info(
      { intervalMs: config.liveChat.pollIntervalMs },
      'the database has no change streams: live chat polls for new messages and reports no removals',
    );

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
    ? { ...config, publicUrl: defaultPublicUrl(port) }
    : config;

  // The events' background reads and writes have a client of their own, apart from the requests'.
  const events = await startEvents(
    await connectDatabase(config.mongodbUri ?? (embedded as EmbeddedMongo).uri, config.mongodbDb),
    settled,
    logger,
  );
  const services: Services = {
    config: settled,
    db,
    logger,
    storage,
    auth: createAuthenticator(db, settled.auth),
    publishLimiter: createPublishRateLimiter(settled, db),
    metrics: withIndexBuilds(metrics, db, embedded !== undefined),
    telemetry,
    chatCache: createChatCache(),
    chatSearches: createSearchSlots(settled.chatSearchConcurrency),
    chatHub: createChatHub({
      db,
      logger,
      mode: changeStreams ? 'change-stream' : 'polling',
      pollIntervalMs: settled.liveChat.pollIntervalMs,
      subscribersMax: settled.liveChat.subscribersMax,
      subscribersPerClient: settled.liveChat.subscribersPerClient,
    }),
    pictures: createThumbnails({ budgetMs: RENDER_BUDGET_MS }, (purpose) =>
      metrics.kidlispRenders.inc({ purpose }),
    ),
    events,
  };
  server.on('request', createRequestListener(services));
  // Works removed anywhere (another instance, `work remove`) leave this one's kept pages at once.
  const removals = watchRemovals(services);
  server.on('clientError', answerClientError);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      removals.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Live streams end here, or the server would wait for them for ever.
      await services.chatHub.close();
      await services.events.close();
      await stopStoringThumbnails(services);
      // Their connections are idle once the last bytes are out.
      setImmediate(() => server.closeIdleConnections());
      await stopped;
      await db.close();
      await telemetry.close();
      if (embedded) {
        await rm(embeddedEndpointFile(config.dataDir), { force: true });
        await embedded.close();
      }
    })());

  return { url, services, server, close };
}
