import type { Database } from '../db/client.js';
import { inSpan, type TraceScope } from './active-span.js';
import { databaseIn } from './scoped-database.js';

/**
 * A DataLoader batch function whose every batch is a span below the span `db` is seen from (the
 * one that made the loader): `dataloader.batch <loader>`, with the number of keys (never the
 * keys). `load` is given the database as that batch's span sees it, so its commands are the
 * batch's children.
 */
export function tracedBatch<K, V>(
  db: Database,
  loader: string,
  load: (keys: readonly K[], db: Database) => Promise<ArrayLike<V | Error>>,
): (keys: readonly K[]) => Promise<ArrayLike<V | Error>> {
  const scope = db.trace;
  if (!scope) return (keys) => load(keys, db);
  return (keys) =>
    inSpan(
      scope,
      `dataloader.batch ${loader}`,
      (batch) => load(keys, batch ? databaseIn(batch.root.db, batch) : db),
      { attributes: { 'dataloader.name': loader, 'dataloader.batch.size': keys.length } },
    );
}

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
