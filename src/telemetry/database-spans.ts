import { type Attributes, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { AbstractCursor, Collection, Document, MongoClient } from 'mongodb';
import type { TraceScope } from './active-span.js';

/**
 * The command each collection method the service calls sends. A method not listed (none the
 * service calls) runs untraced.
 */
const COMMANDS = new Map<string | symbol, string>([
  ['findOne', 'find'],
  ['countDocuments', 'aggregate'],
  ['estimatedDocumentCount', 'count'],
  ['distinct', 'distinct'],
  ['insertOne', 'insert'],
  ['insertMany', 'insert'],
  ['bulkWrite', 'bulkWrite'],
  ['updateOne', 'update'],
  ['updateMany', 'update'],
  ['replaceOne', 'update'],
  ['deleteOne', 'delete'],
  ['deleteMany', 'delete'],
  ['findOneAndUpdate', 'findAndModify'],
  ['findOneAndReplace', 'findAndModify'],
  ['findOneAndDelete', 'findAndModify'],
  ['createIndex', 'createIndexes'],
  ['createIndexes', 'createIndexes'],
  ['dropIndex', 'dropIndexes'],
  ['drop', 'drop'],
]);

/** Methods answering a cursor: their span covers its reading, from the first read to its close. */
const CURSORS = new Map<string | symbol, string>([
  ['find', 'find'],
  ['aggregate', 'aggregate'],
  ['listIndexes', 'listIndexes'],
]);

/** The cursor methods that send its commands (find, then getMore). */
const READS = new Set<string | symbol>([
  'toArray',
  'next',
  'tryNext',
  'hasNext',
  'forEach',
  Symbol.asyncIterator,
]);

/** Where the client's commands go: `host:port`, or the socket path. */
function serverOf(client: MongoClient): Attributes {
  const [host] = client.options.hosts;
  if (!host) return {};
  const address = host.toString();
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  return colon > 0 && Number.isInteger(port)
    ? { 'server.address': address.slice(0, colon).replace(/^\[|\]$/g, ''), 'server.port': port }
    : { 'server.address': address };
}

/** Ends `span` with the failure's kind: the server's code name, or the error's class. */
function failCommand(span: Span, error: unknown): void {
  const { codeName, name } = (error ?? {}) as { codeName?: unknown; name?: unknown };
  span.setAttribute(
    'error.type',
    typeof codeName === 'string' ? codeName : typeof name === 'string' ? name : 'Error',
  );
  span.setStatus({ code: SpanStatusCode.ERROR });
}

type Open = () => Span;

function tracedCursor<C extends AbstractCursor>(cursor: C, open: Open): C {
  let span: Span | undefined;
  const start = () => {
    if (span) return;
    span = open();
    const opened = span;
    cursor.once('close', () => opened.end());
  };
  const traced: C = new Proxy(cursor, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (!READS.has(key))
        // The builder methods (sort, limit, project, map...) answer the cursor itself: keep it traced.
        return (...args: unknown[]) => {
          const answer = value.apply(target, args);
          return answer === target ? traced : answer;
        };
      return (...args: unknown[]) => {
        start();
        const answer = value.apply(target, args);
        if (answer instanceof Promise)
          answer.catch((error: unknown) => {
            if (span) failCommand(span, error);
          });
        return answer;
      };
    },
  });
  return traced;
}

function tracedCall(span: Span, call: () => Promise<unknown>): Promise<unknown> {
  let answer: Promise<unknown>;
  try {
    answer = call();
  } catch (error) {
    failCommand(span, error);
    span.end();
    throw error;
  }
  return answer.then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      failCommand(span, error);
      span.end();
      throw error;
    },
  );
}

/** Where each client sends its commands: `client.options` is a fresh copy at each read. */
const servers = new WeakMap<MongoClient, Attributes>();

function serverAttributesOf(client: MongoClient): Attributes {
  let server = servers.get(client);
  if (!server) {
    server = serverOf(client);
    servers.set(client, server);
  }
  return server;
}

/** A collection as one span sees it: the scope its commands are children of. */
interface ScopedCollection {
  trace: TraceScope;
}

const scopedPrototypes = new WeakMap<Collection<Document>, Collection<Document>>();

/**
 * What every scope's view of `collection` shares: each method that sends a command opens a
 * CLIENT span below the scope's span; every other method and property is the collection's own,
 * called on the collection itself.
 */
function scopedPrototypeOf(collection: Collection<Document>, client: MongoClient) {
  let prototype = scopedPrototypes.get(collection);
  if (prototype) return prototype;
  // A command's span name and attributes: the same for every request.
  const described = new Map<string, { name: string; attributes: Attributes }>();
  const describe = (command: string) => {
    let about = described.get(command);
    if (!about) {
      about = {
        name: `${command} ${collection.collectionName}`,
        attributes: {
          'db.system': 'mongodb',
          'db.system.name': 'mongodb',
          'db.operation.name': command,
          'db.namespace': collection.dbName,
          'db.collection.name': collection.collectionName,
          ...serverAttributesOf(client),
        },
      };
      described.set(command, about);
    }
    return about;
  };
  const open = (scope: TraceScope, command: string) => {
    const { name, attributes } = describe(command);
    return scope.request.tracer.startSpan(
      name,
      { kind: SpanKind.CLIENT, attributes },
      scope.context,
    );
  };
  const descriptors: PropertyDescriptorMap = {};
  for (const [key, descriptor] of Object.entries(
    Object.getOwnPropertyDescriptors(Object.getPrototypeOf(collection)),
  )) {
    if (key === 'constructor') continue;
    const { value: method, get } = descriptor;
    if (get)
      descriptors[key] = {
        get: () => get.call(collection),
        set: descriptor.set && ((value: unknown) => descriptor.set?.call(collection, value)),
      };
    if (typeof method !== 'function') continue;
    const command = COMMANDS.get(key);
    const cursorCommand = CURSORS.get(key);
    descriptors[key] = {
      value:
        command !== undefined
          ? function (this: ScopedCollection, ...args: unknown[]) {
              return tracedCall(open(this.trace, command), () => method.apply(collection, args));
            }
          : cursorCommand !== undefined
            ? function (this: ScopedCollection, ...args: unknown[]) {
                const scope = this.trace;
                return tracedCursor(method.apply(collection, args), () =>
                  open(scope, cursorCommand),
                );
              }
            : (...args: unknown[]) => method.apply(collection, args),
    };
  }
  prototype = Object.create(collection, descriptors) as Collection<Document>;
  scopedPrototypes.set(collection, prototype);
  return prototype;
}

/**
 * `collection` as a span of a traced request sees it: a CLIENT span per command below that span
 * (`find kidlisp`, db.system mongodb, db.operation.name, db.collection.name, db.namespace,
 * server.address/port), opened by the call itself. Never its filter or documents.
 */
export function tracedCollection<T extends Document>(
  collection: Collection<T>,
  client: MongoClient,
  scope: TraceScope,
): Collection<T> {
  const scoped = Object.create(scopedPrototypeOf(collection as never, client)) as ScopedCollection;
  scoped.trace = scope;
  return scoped as unknown as Collection<T>;
}
