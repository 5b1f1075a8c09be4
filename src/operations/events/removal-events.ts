import type { Services } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { RemovedWorkRecord } from '../../db/collections.js';
import type { Logger } from '../../logger.js';
import { eventCollections } from './collections.js';
import type { EventType } from './event-types.js';
import { recordWorkEvents } from './outbox.js';

/** What a take-down or a restore needs to record its event (src/operations/takedowns/take-down.ts). */
export interface RemovalEvents {
  publicUrl: string;
  logger: Logger;
  /** The service's deliverer, to send at once; a command leaves it to the running instances' poll. */
  nudge?: () => void;
}

/** A running service's: its deliverer sends the event at once. */
export const removalEventsOf = (
  services: Pick<Services, 'config' | 'logger' | 'events'>,
): RemovalEvents => ({
  publicUrl: services.config.publicUrl,
  logger: services.logger,
  nudge: services.events.nudge,
});

/**
 * `work.removed` after a take-down, `work.restored` after a restore: the work's own `data` with
 * the removal's time (never the operator's reason). A failure is logged and the take-down or
 * restore stands; no sweeper records it later, since the removal is done.
 */
export async function announceRemoval(
  db: Database,
  events: RemovalEvents,
  type: Extract<EventType, 'work.removed' | 'work.restored'>,
  entry: RemovedWorkRecord,
): Promise<void> {
  try {
    await recordWorkEvents(db, eventCollections(db.db), events.publicUrl, type, [
      { kind: entry.kind, record: entry.record, removedAt: entry.when },
    ]);
    events.nudge?.();
  } catch (error) {
    events.logger.warn({ err: error, address: entry._id, type }, 'work event not recorded');
  }
}
