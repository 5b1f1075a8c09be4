import type { Document } from 'mongodb';
import type { RequestContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isDuplicateKey } from '../../db/failure-kinds.js';
import { ITEM_KINDS, type ItemKind } from '../../domain/item-kinds.js';
import type { Logger } from '../../logger.js';
import { collectionOf } from '../items/item.js';
import { type EventCollections, eventCollections } from './collections.js';
import type { EventType } from './event-types.js';
import { type EventWork, eventKey, WORK_EVENT_FIELDS, workEventData } from './work-event.js';

/**
 * Records events of stored works, each once (its unique key decides a race between the
 * publishing instance and a sweeper); answers how many were new.
 */
export async function recordWorkEvents(
  db: Database,
  collections: EventCollections,
  publicUrl: string,
  type: EventType,
  works: EventWork[],
): Promise<number> {
  if (works.length === 0) return 0;
  const data = await workEventData(db, publicUrl, works);
  let recorded = 0;
  for (const [index, one] of data.entries()) {
    try {
      await collections.events.insertOne({
        key: eventKey(type, one.kind, one.code, works[index]?.removedAt),
        type,
        when: new Date(),
        data: one,
        fannedOut: false,
      } as never);
      recorded += 1;
    } catch (error) {
      if (!isDuplicateKey(error, 'key')) throw error;
    }
  }
  return recorded;
}

/**
 * After a publish stored a new work: its `work.published` event. There is no transaction to
 * write both at once, so a failure here (or a crash before it) leaves the work without its
 * event until the sweeper below finds it; the publish itself has succeeded and says so.
 */
export async function announceWorkPublished(
  ctx: RequestContext,
  kind: ItemKind,
  outcome: { code: string; cached: boolean },
): Promise<void> {
  if (outcome.cached) return;
  const { db, config, events, logger } = ctx.services;
  try {
    const record = await collectionOf(db, kind).findOne(
      { code: outcome.code },
      { projection: WORK_EVENT_FIELDS },
    );
    if (!record) return;
    // On the request's own client: the events' client is for their background work.
    await recordWorkEvents(db, eventCollections(db.db), config.publicUrl, 'work.published', [
      { kind, record },
    ]);
    events.nudge();
  } catch (error) {
    logger.warn(
      { err: error, kind, code: outcome.code },
      'work event not recorded; the sweeper will',
    );
  }
}

/** Works stored this long before the last sweep are looked at again (a publish in flight then). */
export const SWEEP_OVERLAP_MS = 5 * 60_000;
const SWEEP_MARK = 'works-swept';

/**
 * Runs one sweep from where the last one of its kind (`mark`) looked, less SWEEP_OVERLAP_MS,
 * then moves the mark. The first sweep of a database only sets it, so what happened before
 * events existed makes none.
 */
export async function sweepFromMark(
  collections: EventCollections,
  mark: string,
  sweep: (since: Date) => Promise<number>,
): Promise<number> {
  const started = new Date();
  const last = await collections.marks.findOne({ _id: mark });
  if (!last) {
    await collections.marks.updateOne(
      { _id: mark },
      { $set: { until: started } },
      { upsert: true },
    );
    return 0;
  }
  const recorded = await sweep(new Date(last.until.getTime() - SWEEP_OVERLAP_MS));
  await collections.marks.updateOne({ _id: mark }, { $set: { until: started } });
  return recorded;
}

/**
 * Finds works published since the last sweep that have no event, and records theirs: what a
 * process killed between a publish and its event left.
 */
export function sweepUnrecordedWorks(
  db: Database,
  collections: EventCollections,
  publicUrl: string,
  logger: Logger,
): Promise<number> {
  return sweepFromMark(collections, SWEEP_MARK, async (since) => {
    const missing: { kind: ItemKind; record: Document }[] = [];
    for (const kind of ITEM_KINDS) {
      const works = await collectionOf(db, kind)
        .find({ when: { $gte: since } }, { projection: WORK_EVENT_FIELDS })
        .toArray();
      if (works.length === 0) continue;
      const keys = works.map((work) => eventKey('work.published', kind, work.code));
      const known = await knownKeys(collections, keys);
      for (const [index, record] of works.entries())
        if (!known.has(keys[index] as string)) missing.push({ kind, record });
    }
    const recorded = await recordWorkEvents(db, collections, publicUrl, 'work.published', missing);
    if (recorded > 0) logger.info({ recorded }, 'events of works published without one recorded');
    return recorded;
  });
}

/** Which of these event keys are recorded. */
export async function knownKeys(
  collections: EventCollections,
  keys: string[],
): Promise<Set<string>> {
  const found = await collections.events
    .find({ key: { $in: keys } }, { projection: { key: 1 } })
    .toArray();
  return new Set(found.map((event) => event.key));
}
