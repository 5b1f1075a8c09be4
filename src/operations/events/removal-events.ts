import type { Services } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { RemovedWorkRecord } from '../../db/collections.js';
import type { Logger } from '../../logger.js';
import { collectionOf } from '../items/item.js';
import { removedWorks } from '../takedowns/store.js';
import { type EventCollections, eventCollections } from './collections.js';
import type { EventType } from './event-types.js';
import { knownKeys, recordWorkEvents, sweepFromMark } from './outbox.js';
import { eventKey } from './work-event.js';

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
 * restore stands; a take-down's is recorded later by the sweeper below, a restore's is not.
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

const REMOVALS_SWEEP_MARK = 'removals-swept';

/**
 * Finds works taken down since the last sweep that have no `work.removed` event, and records
 * theirs: what a process killed between a take-down and its event left. A take-down cut short
 * before its work left its collection is not one yet: the work is still shown, so it makes none.
 */
export function sweepUnrecordedRemovals(
  db: Database,
  collections: EventCollections,
  publicUrl: string,
  logger: Logger,
): Promise<number> {
  return sweepFromMark(collections, REMOVALS_SWEEP_MARK, async (since) => {
    const entries = await removedWorks(db)
      .find({ when: { $gte: since } })
      .toArray();
    if (entries.length === 0) return 0;
    const keys = entries.map((entry) =>
      eventKey('work.removed', entry.kind, entry.code, entry.when),
    );
    const known = await knownKeys(collections, keys);
    const unknown = entries.filter((_, index) => !known.has(keys[index] as string));
    // Still shown: one query per kind for all of them.
    const shown = new Set<string>();
    for (const kind of new Set(unknown.map((entry) => entry.kind))) {
      const codes = unknown.filter((entry) => entry.kind === kind).map((entry) => entry.code);
      const found = await collectionOf(db, kind)
        .find({ code: { $in: codes } }, { projection: { code: 1 } })
        .toArray();
      for (const record of found) shown.add(`${kind}:${record.code}`);
    }
    const missing = unknown.filter((entry) => !shown.has(`${entry.kind}:${entry.code}`));
    const recorded = await recordWorkEvents(
      db,
      collections,
      publicUrl,
      'work.removed',
      missing.map((entry) => ({ kind: entry.kind, record: entry.record, removedAt: entry.when })),
    );
    if (recorded > 0) logger.info({ recorded }, 'events of works taken down without one recorded');
    return recorded;
  });
}
