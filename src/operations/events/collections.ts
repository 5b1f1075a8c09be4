import type { Collection, Db, ObjectId } from 'mongodb';
import type { Logger } from '../../logger.js';
import type { EventType, WorkEventData } from './event-types.js';

/** An event as recorded: the works stream reads these, and webhook deliveries are made from them. */
export interface WorkEventRecord {
  _id: ObjectId;
  /**
   * `<type> <kind>:<code>` (with ` <removal time>` for a removal or a restore): unique, so an
   * event is recorded once however often it is tried (src/operations/events/work-event.ts).
   */
  key: string;
  type: EventType;
  /** When it was recorded: the stream's order is `(when, _id)`. */
  when: Date;
  data: WorkEventData;
  /** false until a deliverer has made this event's deliveries, one per hook that wants it. */
  fannedOut: boolean;
}

/** A hook an operator added (`publish-gateway webhook add`). */
export interface WebhookRecord {
  _id: string;
  url: string;
  events: EventType[];
  /** Only this author's works (a handle, without the @); null: everyone's. */
  author: string | null;
  /** `whsec_<base64>`; the previous one still signs, beside it, until `previousUntil`. */
  secret: string;
  previousSecret?: string;
  previousUntil?: Date;
  created: Date;
  /** Set when its deliveries kept failing; no more are made or sent. */
  disabled: { at: Date; reason: string } | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One try of a delivery, as the log shows it. */
export interface AttemptRecord {
  at: Date;
  /** The receiver's HTTP status; null when none came (refused, timed out, unreachable). */
  status: number | null;
  ms: number;
  error: string | null;
  /** The start of the receiver's answer, at most RESPONSE_BODY_KEPT bytes. */
  body: string | null;
}

/** One event for one hook: its `_id` is the `webhook-id` of every attempt. */
export interface DeliveryRecord {
  _id: string;
  hook: string;
  event: ObjectId;
  type: EventType;
  /** The exact bytes every attempt sends. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  /** When the next attempt is due (pending deliveries). */
  nextAt: Date;
  /** Held by the instance sending the current attempt, until `until`. */
  lease: { owner: string; until: Date } | null;
  log: AttemptRecord[];
  created: Date;
}

/** A mark kept in the database: how far the sweeper has looked for works without their event. */
export interface EventMarkRecord {
  _id: string;
  until: Date;
}

export interface EventCollections {
  events: Collection<WorkEventRecord>;
  hooks: Collection<WebhookRecord>;
  deliveries: Collection<DeliveryRecord>;
  marks: Collection<EventMarkRecord>;
}

export const eventCollectionNames = {
  events: 'work-events',
  hooks: 'webhooks',
  deliveries: 'webhook-deliveries',
  marks: 'event-marks',
} as const;

export function eventCollections(db: Db): EventCollections {
  return {
    events: db.collection(eventCollectionNames.events),
    hooks: db.collection(eventCollectionNames.hooks),
    deliveries: db.collection(eventCollectionNames.deliveries),
    marks: db.collection(eventCollectionNames.marks),
  };
}

/** The indexes every read of these collections uses; created at start-up (src/service.ts). */
export async function ensureEventIndexes(collections: EventCollections, logger: Logger) {
  await Promise.all([
    collections.events.createIndex({ key: 1 }, { unique: true, name: 'events_key' }),
    collections.events.createIndex({ when: 1, _id: 1 }, { name: 'events_when_id' }),
    collections.events.createIndex({ fannedOut: 1 }, { name: 'events_fanned_out' }),
    collections.deliveries.createIndex({ state: 1, nextAt: 1 }, { name: 'deliveries_due' }),
    collections.deliveries.createIndex({ hook: 1, created: -1 }, { name: 'deliveries_hook' }),
  ]);
  logger.debug('event indexes ready');
}
