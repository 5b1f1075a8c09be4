import { Collection, type Db, type Document, type MongoClient } from 'mongodb';
import type { TraceScope } from '../telemetry/active-span.js';
import { tracedCollection } from '../telemetry/database-spans.js';

/** What this file reads of a Database (src/db/client.ts). */
interface Database {
  client: MongoClient;
  db: Db;
  chat: { system: unknown; clock: unknown };
}

/** One span's database: the scope its commands are children of; everything else is the process's. */
interface ScopedDatabase extends Database {
  trace: TraceScope;
}

const scopedPrototypes = new WeakMap<Database, Database>();

/**
 * What every scope's database of `db` shares: each collection (and `chat`'s two, and those
 * `db.db.collection(name)` names) read as that scope's traced collection; the rest read through.
 */
function scopedPrototypeOf(db: Database): Database {
  let prototype = scopedPrototypes.get(db);
  if (prototype) return prototype;
  const traced = <T extends Document>(collection: Collection<T>, scoped: ScopedDatabase) =>
    tracedCollection(collection, db.client, scoped.trace);
  const descriptors: PropertyDescriptorMap = {
    chat: {
      get(this: ScopedDatabase) {
        const { system, clock } = db.chat as Record<'system' | 'clock', Collection<Document>>;
        return { system: traced(system, this), clock: traced(clock, this) };
      },
    },
    db: {
      get(this: ScopedDatabase): Db {
        return Object.create(db.db, {
          collection: { value: (name: string) => traced(db.db.collection(name), this) },
        });
      },
    },
  };
  for (const [key, value] of Object.entries(db))
    if (value instanceof Collection)
      descriptors[key] = {
        get(this: ScopedDatabase) {
          return traced(value, this);
        },
      };
  prototype = Object.create(db, descriptors) as Database;
  scopedPrototypes.set(db, prototype);
  return prototype;
}

/** `db` as seen from a span of a traced request: each collection's commands are that span's children. */
export function databaseIn<D extends Database>(db: D, scope: TraceScope): D {
  const scoped = Object.create(scopedPrototypeOf(db)) as ScopedDatabase;
  scoped.trace = scope;
  return scoped as unknown as D;
}
