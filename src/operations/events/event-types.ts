import type { ItemKind } from '../../domain/item-kinds.js';

/**
 * Every event type the service sends to streams and webhooks. `work.removed` (a take-down) is
 * one more entry here and one more `recordWorkEvent` call where a work is removed.
 */
export const EVENT_TYPES = ['work.published'] as const;
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
  /** When the work was published (ISO 8601). */
  when: string;
}

/** A webhook's body (docs/contract.md, Webhooks): Standard Webhooks' envelope. */
export interface EventEnvelope {
  type: EventType;
  /** When the event was recorded (ISO 8601). */
  timestamp: string;
  data: WorkEventData;
}
