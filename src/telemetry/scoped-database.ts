import { Collection } from 'mongodb';
import type { Database } from '../db/client.js';
import type { TraceScope } from './active-span.js';
import { tracedCollection } from './database-spans.js';

/** `db` as seen from a span of a traced request: each collection's commands are that span's children. */
export function databaseIn(db: Database, scope: TraceScope): Database {
  const made = new Map<string | symbol, unknown>();
  const seen = (value: unknown): unknown => {
    if (value instanceof Collection) return tracedCollection(value, db.client, scope);
    return value;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'trace') return scope;
      if (!made.has(key)) {
        const value = Reflect.get(target, key);
        made.set(
          key,
          key === 'chat'
            ? {
                system: seen((value as Database['chat']).system),
                clock: seen((value as Database['chat']).clock),
              }
            : seen(value),
        );
      }
      return made.get(key);
    },
  });
}
