import { inSpan, type TraceScope } from './active-span.js';

/** The queues the service makes work wait in (src/operations/chat/search-slots.ts). */
export type QueueName = 'chat.search' | 'render';

/** The wait for a turn in `queue`, as a span below `scope` (when traced). */
export const waitSpan = <T>(
  queue: QueueName,
  scope: TraceScope | undefined,
  wait: () => Promise<T>,
) => inSpan(scope, `${queue} wait`, wait, { attributes: { 'queue.name': queue } });

/** The turn's work, as another span, given that span's scope. */
export const workSpan = <T>(
  queue: QueueName,
  scope: TraceScope | undefined,
  work: (scope: TraceScope | undefined) => Promise<T>,
) => inSpan(scope, queue, work, { attributes: { 'queue.name': queue } });
