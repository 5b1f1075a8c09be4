import { inSpan } from '../telemetry/active-span.js';
import type { Database } from './client.js';

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
      (batch) => load(keys, batch ? db.seenFrom(batch) : db),
      { attributes: { 'dataloader.name': loader, 'dataloader.batch.size': keys.length } },
    );
}
