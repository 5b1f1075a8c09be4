import type { CommandStartedEvent, Document, MongoClient } from 'mongodb';
import { collectionNames } from '../../src/db/collections.js';

/** Connection and session housekeeping, not the work of a request. */
const housekeeping = new Set([
  'hello',
  'ismaster',
  'isMaster',
  'ping',
  'endSessions',
  'saslStart',
  'saslContinue',
  'buildInfo',
]);

/** What the service reads by itself, whatever the requests: the removal counter (src/operations/takedowns/watch.ts). */
const isBackground = (command: Document) => command.find === collectionNames.removalGeneration;

export interface CommandLog {
  /** The command names started since the last `clear()`. */
  names(): string[];
  /** The commands themselves (name and document), in the order they started, since the last `clear()`. */
  commands(): { name: string; command: Document }[];
  clear(): void;
  stop(): void;
}

/** Records the commands a client sends (the client needs `monitorCommands`: startTestApp's option). */
export function recordCommands(client: MongoClient): CommandLog {
  let started: { name: string; command: Document }[] = [];
  const listener = (event: CommandStartedEvent) => {
    if (!housekeeping.has(event.commandName) && !isBackground(event.command))
      started.push({ name: event.commandName, command: event.command });
  };
  client.on('commandStarted', listener);
  return {
    names: () => started.map((entry) => entry.name),
    commands: () => [...started],
    clear: () => {
      started = [];
    },
    stop: () => {
      client.off('commandStarted', listener);
    },
  };
}
