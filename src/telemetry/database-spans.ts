import { type Attributes, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  MongoClient,
} from 'mongodb';
import { tracedNow } from './active-span.js';

/** The collection a command names: `{ find: 'kidlisp' }`, `{ getMore: id, collection: 'kidlisp' }`. */
function collectionOf(event: CommandStartedEvent): string | undefined {
  const named = event.command[event.commandName];
  if (typeof named === 'string') return named;
  const collection = event.command.collection;
  return typeof collection === 'string' ? collection : undefined;
}

function serverOf(address: string): Attributes {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  return colon > 0 && Number.isInteger(port)
    ? { 'server.address': address.slice(0, colon).replace(/^\[|\]$/g, ''), 'server.port': port }
    : { 'server.address': address };
}

/**
 * A client span per MongoDB command a traced request sends, from the driver's command
 * monitoring (the client needs `monitorCommands`). Only the command's name, collection,
 * database and server are exported, never its filter or documents.
 */
export function traceCommands(client: MongoClient): void {
  /** By the command's request id: the driver numbers every command of the process apart. */
  const open = new Map<number, Span>();
  const servers = new Map<string, Attributes>();
  client.on('commandStarted', (event: CommandStartedEvent) => {
    const traced = tracedNow();
    if (!traced) return;
    const collection = collectionOf(event);
    const attributes: Attributes = {
      'db.system': 'mongodb',
      'db.system.name': 'mongodb',
      'db.operation.name': event.commandName,
      'db.namespace': event.databaseName,
    };
    if (collection) attributes['db.collection.name'] = collection;
    if (!servers.has(event.address)) servers.set(event.address, serverOf(event.address));
    Object.assign(attributes, servers.get(event.address));
    const span = traced.tracer.startSpan(
      `${event.commandName} ${collection ?? event.databaseName}`,
      { kind: SpanKind.CLIENT, attributes },
      traced.context,
    );
    open.set(event.requestId, span);
  });
  const finish = (event: CommandSucceededEvent | CommandFailedEvent, failed: boolean) => {
    const span = open.get(event.requestId);
    if (!span) return;
    open.delete(event.requestId);
    if (failed) {
      const failure = (event as CommandFailedEvent).failure as {
        codeName?: unknown;
        name?: string;
      };
      span.setAttribute(
        'error.type',
        typeof failure.codeName === 'string' ? failure.codeName : (failure.name ?? 'Error'),
      );
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  client.on('commandSucceeded', (event) => finish(event, false));
  client.on('commandFailed', (event) => finish(event, true));
}
