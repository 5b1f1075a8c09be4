import type { ItemKind } from '../../domain/item-kinds.js';

/**
 * Every event type the service sends to webhooks: a new work, a take-down (an operator's removal
 * or its author's deletion) and a restore. The works stream carries `work.published` only
 * (src/operations/events/subscribe-works.ts).
 */
export const EVENT_TYPES = ['work.published', 'work.removed', 'work.restored'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an event says of a work: the same `data` on the works stream, the subscription and webhooks. */
export interface WorkEventData {
  kind: ItemKind;
  code: string;
  url: string;
  /** `@handle` of the author, or null for an anonymous work or an account without a handle. */
  author: string | null;
  /** The work it was remixed from (`clock~<code>` for a melody), or null for an original. */
  remixOf: string | null;
  /** When the work was published (ISO 8601), whatever the event. */
  when: string;
  /** `work.removed`: when it was taken down; `work.restored`: when the removal it undoes was. */
  removedAt?: string;
}

/** A webhook's body (docs/contract.md, Webhooks): Standard Webhooks' envelope. */
export interface EventEnvelope {
  type: EventType;
  /** When the event was recorded (ISO 8601). */
  timestamp: string;
  data: WorkEventData;
}
