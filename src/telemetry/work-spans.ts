import { inSpan } from './active-span.js';

/**
 * A DataLoader batch function whose every batch is a span of the traced request that first
 * asked for one of its keys: `dataloader.batch <loader>`, with the number of keys (never the keys).
 */
export function tracedBatch<K, V>(
  loader: string,
  load: (keys: readonly K[]) => Promise<ArrayLike<V | Error>>,
): (keys: readonly K[]) => Promise<ArrayLike<V | Error>> {
  return (keys) =>
    inSpan(`dataloader.batch ${loader}`, () => load(keys), {
      attributes: { 'dataloader.name': loader, 'dataloader.batch.size': keys.length },
    });
}

/** The queues the service makes work wait in (src/operations/chat/search-slots.ts). */
export type QueueName = 'chat.search' | 'render';

/** The wait for a turn in `queue`, as a span; and the turn's work, as another. */
export const waitSpan = <T>(queue: QueueName, wait: () => Promise<T>) =>
  inSpan(`${queue} wait`, wait, { attributes: { 'queue.name': queue } });

export const workSpan = <T>(queue: QueueName, work: () => Promise<T>) =>
  inSpan(queue, work, { attributes: { 'queue.name': queue } });
