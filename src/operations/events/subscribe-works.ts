import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { tracedDeliveries } from '../../telemetry/stream-spans.js';
import { replayThenLive } from '../chat/live/replay.js';
import { handleField, kindField } from '../items/inputs.js';
import { defineOperation } from '../operation.js';
import { cursorField, optional } from '../validation.js';
import type { WorkEventRecord } from './collections.js';
import { decodeEventCursor, type EventPosition, encodeEventCursor } from './event-cursor.js';
import type { EventType } from './event-types.js';
import { toStreamEvent, type WorkStreamEvent, type WorksFeed } from './works-hub.js';

export const subscribeWorksInput = z.object({
  kind: optional(kindField),
  author: optional(handleField('author')),
  after: optional(cursorField('after', decodeEventCursor)),
});
export type SubscribeWorksInput = z.output<typeof subscribeWorksInput>;

/** The stream is of new works: removals and restores go to webhooks only. */
export const WORKS_STREAM_TYPE: EventType = 'work.published';

/**
 * Each work as it is published (`work.published`), wherever it was published: every instance
 * reads the recorded events. With `after` (the `id` of an event the client has), every event
 * after it is read back first, in order, then the live ones, none twice.
 */
export const subscribeWorks = defineOperation({
  name: 'subscribeWorks',
  input: subscribeWorksInput,
  async run(ctx: RequestContext, input: SubscribeWorksInput): Promise<WorksFeed> {
    const author = input.author === undefined ? undefined : `@${input.author}`;
    const accepts = (event: WorkStreamEvent) =>
      event.type === WORKS_STREAM_TYPE &&
      (input.kind === undefined || event.data.kind === input.kind) &&
      (author === undefined || event.data.author === author);
    const { events } = ctx.services;
    const live = await events.hub.subscribe({
      clientKey: ctx.clientKey,
      accepts,
      startCursor: input.after && encodeEventCursor(input.after),
    });
    if (!input.after) return tracedDeliveries(live, 'works.live', ctx.services.trace);
    const filter = {
      type: WORKS_STREAM_TYPE,
      ...(input.kind ? { 'data.kind': input.kind } : {}),
      ...(author ? { 'data.author': author } : {}),
    };
    const replayed = await replayThenLive<WorkEventRecord, EventPosition, WorkStreamEvent>(
      {
        read: (position, size) =>
          events.collections.events
            .find(
              {
                ...filter,
                $or: [
                  { when: { $gt: position.when } },
                  { when: position.when, _id: { $gt: position.id } },
                ],
              },
              { sort: { when: 1, _id: 1 }, limit: size },
            )
            .toArray(),
        positionOf: (record) => ({ when: record.when, id: record._id }),
        cursorOf: encodeEventCursor,
        idOf: (record) => record._id.toHexString(),
        liveIdOf: (event) => event.id,
        event: (record) => toStreamEvent(record),
        what: 'works',
      },
      input.after,
      live,
    );
    return tracedDeliveries(replayed, 'works.live', ctx.services.trace);
  },
});
