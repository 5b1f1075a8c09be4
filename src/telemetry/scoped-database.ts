import { type ClientSession, Collection, type Document } from 'mongodb';
import type { Database } from '../db/client.js';
import type { RequestTrace, TraceScope } from './active-span.js';

/**
 * Where each collection method takes its options, so a scope's session can ride in them. A
 * method not listed (none the service calls) runs in an implicit session, its commands untraced.
 */
const OPTIONS_AT = new Map<string | symbol, number>([
  ['find', 1],
  ['findOne', 1],
  ['aggregate', 1],
  ['countDocuments', 1],
  ['estimatedDocumentCount', 0],
  ['distinct', 2],
  ['insertOne', 1],
  ['insertMany', 1],
  ['bulkWrite', 1],
  ['updateOne', 2],
  ['updateMany', 2],
  ['replaceOne', 2],
  ['deleteOne', 1],
  ['deleteMany', 1],
  ['findOneAndUpdate', 2],
  ['findOneAndReplace', 2],
  ['findOneAndDelete', 1],
  ['createIndex', 1],
  ['createIndexes', 1],
  ['dropIndex', 1],
  ['listIndexes', 0],
  ['drop', 0],
]);

/**
 * The scope each open session's commands belong to, by the session's `lsid` (the very object the
 * driver puts in each command it sends in that session): src/telemetry/database-spans.ts reads it.
 */
const scopes = new Map<unknown, TraceScope>();

export const scopeOfCommand = (command: Document): TraceScope | undefined =>
  scopes.get(command.lsid);

/** The scope's own driver session, opened on its first command; none once its request is over. */
function sessionOf(scope: TraceScope, db: Database): ClientSession | undefined {
  if (scope.request.closed) return undefined;
  if (!scope.session) {
    const session = db.client.startSession({ causalConsistency: false });
    scope.session = session;
    scope.request.sessions.push(session);
    scopes.set(session.id, scope);
  }
  return scope.session;
}

/** Ends the sessions a request's spans opened; a later command of that request runs untraced. */
export function endSessions(request: RequestTrace): void {
  request.closed = true;
  for (const session of request.sessions) {
    scopes.delete(session.id);
    void session.endSession().catch(() => {});
  }
  request.sessions = [];
}

function inSession<T extends Document>(
  collection: Collection<T>,
  scope: TraceScope,
  db: Database,
): Collection<T> {
  return new Proxy(collection, {
    get(target, key) {
      const value = Reflect.get(target, key);
      const at = OPTIONS_AT.get(key);
      if (at === undefined || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const session = sessionOf(scope, db);
        if (session) {
          while (args.length < at) args.push(undefined);
          args[at] = { ...(args[at] as object | undefined), session };
        }
        return value.apply(target, args);
      };
    },
  });
}

/** `db` as seen from a span: each collection's commands are sent in the scope's own session. */
export function databaseIn(db: Database, scope: TraceScope): Database {
  const made = new Map<string | symbol, unknown>();
  const bound = (key: string | symbol, value: unknown): unknown => {
    if (value instanceof Collection) return inSession(value, scope, db);
    if (key === 'chat') {
      const { system, clock } = value as Database['chat'];
      return { system: inSession(system, scope, db), clock: inSession(clock, scope, db) };
    }
    return value;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'trace') return scope;
      if (!made.has(key)) made.set(key, bound(key, Reflect.get(target, key)));
      return made.get(key);
    },
  });
}
