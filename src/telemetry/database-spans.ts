import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  MongoClient,
} from 'mongodb';
import { scopeOfCommand } from './scoped-database.js';

/** The collection a command names: `{ find: 'kidlisp' }`, `{ getMore: id, collection: 'kidlisp' }`. */
function collectionOf(event: CommandStartedEvent): string | undefined {
  const named = event.command[event.commandName];
  if (typeof named === 'string') return named;
  const collection = event.command.collection;
  return typeof collection === 'string' ? collection : undefined;
}

function serverOf(address: string): { 'server.address': string; 'server.port'?: number } {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  return colon > 0 && Number.isInteger(port)
    ? { 'server.address': address.slice(0, colon).replace(/^\[|\]$/g, ''), 'server.port': port }
    : { 'server.address': address };
}

/**
 * A client span per MongoDB command a traced request sends, from the driver's command
 * monitoring (the client needs `monitorCommands`): the child of the span whose session it was
 * sent in (src/telemetry/scoped-database.ts). Only the command's name, collection,
 * database and server are exported, never its filter or documents.
 */
export function traceCommands(client: MongoClient): void {
  const open = new Map<string, Span>();
  const keyOf = (event: { connectionId?: string | number; requestId: number; address: string }) =>
    `${event.address}/${event.connectionId}/${event.requestId}`;
  client.on('commandStarted', (event: CommandStartedEvent) => {
    const scope = scopeOfCommand(event.command);
    if (!scope) return;
    const collection = collectionOf(event);
    const span = scope.request.tracer.startSpan(
      `${event.commandName} ${collection ?? event.databaseName}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system': 'mongodb',
          'db.system.name': 'mongodb',
          'db.operation.name': event.commandName,
          'db.namespace': event.databaseName,
          ...(collection ? { 'db.collection.name': collection } : {}),
          ...serverOf(event.address),
        },
      },
      scope.context,
    );
    open.set(keyOf(event), span);
  });
  const finish = (event: CommandSucceededEvent | CommandFailedEvent, failed: boolean) => {
    const key = keyOf(event);
    const span = open.get(key);
    if (!span) return;
    open.delete(key);
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
