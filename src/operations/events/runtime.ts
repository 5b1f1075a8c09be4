import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { ensureEventIndexes, eventCollections } from './collections.js';
import type { EventsRuntime } from './events-runtime.js';
import { sweepUnrecordedWorks } from './outbox.js';
import { sweepUnrecordedRemovals } from './removal-events.js';
import { startDeliverer } from './webhooks/deliverer.js';
import { createWorksHub } from './works-hub.js';

/** The deliverer looks for work nobody woke it for (see DelivererOptions.idlePollMs) this often. */
export const DELIVERER_IDLE_POLL_MS = 1_000;

/** The sweeper looks for works and take-downs without their event this often (and once at start). */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Started and stopped by the composition root (src/service.ts), like the live chat hub, over a
 * database client of its own, which `close()` closes. The start-up sweep runs before the service
 * listens, so events a killed process owed are recorded (and then delivered) first.
 */
export async function startEvents(
  db: Database,
  config: Config,
  logger: Logger,
): Promise<EventsRuntime> {
  const collections = eventCollections(db.db);
  await ensureEventIndexes(collections, logger);
  const sweep = async () => {
    await sweepUnrecordedWorks(db, collections, config.publicUrl, logger);
    await sweepUnrecordedRemovals(db, collections, config.publicUrl, logger);
  };
  await sweep();
  const hub = createWorksHub({
    collections,
    logger,
    pollIntervalMs: config.events.pollIntervalMs,
    subscribersMax: config.liveChat.subscribersMax,
    subscribersPerClient: config.liveChat.subscribersPerClient,
  });
  const deliverer = startDeliverer({
    collections,
    logger,
    idlePollMs: Math.max(DELIVERER_IDLE_POLL_MS, config.events.pollIntervalMs),
    allowPrivate: config.events.webhookAllowPrivate,
    retryDelaysMs: config.events.webhookRetryDelaysMs,
  });
  let sweeping = Promise.resolve();
  const timer = setInterval(() => {
    sweeping = sweep()
      .then(() => undefined)
      .catch((error: unknown) => logger.warn({ err: error }, 'work events sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    collections,
    hub,
    nudge: deliverer.nudge,
    async close() {
      clearInterval(timer);
      await hub.close();
      await deliverer.close();
      await sweeping;
      await db.close();
    },
  };
}
