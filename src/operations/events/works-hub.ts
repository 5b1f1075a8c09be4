import type { Document, ObjectId } from 'mongodb';
import type { Logger } from '../../logger.js';
import { type AdmissionLimits, createAdmission } from '../chat/live/admission.js';
import type { ChatFeedSource } from '../chat/live/events.js';
import { pollingSource } from '../chat/live/polling-source.js';
import { type LiveFeed, Subscriber } from '../chat/live/subscriber.js';
import type { EventCollections, WorkEventRecord } from './collections.js';
import { encodeEventCursor } from './event-cursor.js';
import type { EventType, WorkEventData } from './event-types.js';

/** An event of the works stream: its cursor is the `id` a client resumes after. */
export interface WorkStreamEvent {
  cursor: string;
  /** The recorded event's id (hex), the same for every instance. */
  id: string;
  type: EventType;
  data: WorkEventData;
}

export const toStreamEvent = (record: Pick<WorkEventRecord, '_id' | 'when' | 'type' | 'data'>) => ({
  cursor: encodeEventCursor({ when: record.when, id: record._id as ObjectId }),
  id: record._id.toHexString(),
  type: record.type,
  data: record.data,
});

export type WorksFeed = LiveFeed<WorkStreamEvent>;

export interface WorksSubscribeRequest {
  clientKey: string;
  accepts(event: WorkStreamEvent): boolean;
  startCursor?: string | undefined;
}

/** The works stream of one process: one reader of the recorded events, shared by every subscriber. */
export interface WorksHub {
  subscribe(request: WorksSubscribeRequest): Promise<Subscriber<WorkStreamEvent, 'works'>>;
  counts(): { subscribers: number; sources: number };
  close(): Promise<void>;
}

export interface WorksHubOptions extends AdmissionLimits {
  collections: EventCollections;
  logger: Logger;
  pollIntervalMs: number;
  bufferMax?: number;
}

const EVENT_FIELDS = { when: 1, type: 1, data: 1 } as const;

/**
 * Follows the recorded events (src/operations/events/outbox.ts) by polling them in `(when, _id)`
 * order, as live chat polls a channel (src/operations/chat/live/polling-source.ts): every
 * instance sees every publish, wherever it was made, within the poll interval.
 */
export function createWorksHub(options: WorksHubOptions): WorksHub {
  const admission = createAdmission(options, 'live works streams');
  const subscribers = new Set<Subscriber<WorkStreamEvent, 'works'>>();
  let source: ChatFeedSource | undefined;

  function start(): ChatFeedSource {
    return pollingSource<WorkStreamEvent>(
      {
        collection: options.collections.events,
        label: 'works',
        projection: EVENT_FIELDS,
        toEntry: (doc: Document) => toStreamEvent(doc as WorkEventRecord),
        intervalMs: options.pollIntervalMs,
        logger: options.logger,
      },
      {
        async added(events) {
          for (const event of events)
            for (const subscriber of subscribers) subscriber.deliver(event);
        },
      },
    );
  }

  function leave(subscriber: Subscriber<WorkStreamEvent, 'works'>): void {
    admission.leave(subscriber.clientKey);
    subscribers.delete(subscriber);
    if (subscribers.size > 0 || !source) return;
    void source.stop();
    source = undefined;
  }

  return {
    async subscribe(request) {
      admission.admit(request.clientKey);
      const subscriber = new Subscriber<WorkStreamEvent, 'works'>({
        channels: ['works'],
        clientKey: request.clientKey,
        bufferMax: options.bufferMax ?? 256,
        accepts: request.accepts,
        cursorOf: (event) => event.cursor,
        startCursor: request.startCursor,
        onEnd: leave,
      });
      subscribers.add(subscriber);
      source ??= start();
      const started = source;
      try {
        await started.ready;
      } catch (error) {
        if (source === started) source = undefined;
        subscriber.end(null);
        throw error;
      }
      return subscriber;
    },
    counts: () => ({ subscribers: admission.total, sources: source ? 1 : 0 }),
    async close() {
      admission.close();
      for (const subscriber of [...subscribers]) subscriber.end(null);
      await source?.stop();
      source = undefined;
    },
  };
}
