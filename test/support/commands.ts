import type { CommandStartedEvent, MongoClient } from 'mongodb';

/** Connection and session housekeeping, not the work of a request. */
const housekeeping = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'saslStart', 'saslContinue', 'buildInfo']);

export interface CommandLog {
  /** The command names started since the last `clear()`. */
  names(): string[];
  clear(): void;
  stop(): void;
}

/** Records the commands a client sends (the client needs `monitorCommands`: startTestApp's option). */
export function recordCommands(client: MongoClient): CommandLog {
  let names: string[] = [];
  const listener = (event: CommandStartedEvent) => {
    if (!housekeeping.has(event.commandName)) names.push(event.commandName);
  };
  client.on('commandStarted', listener);
  return {
    names: () => [...names],
    clear: () => {
      names = [];
    },
    stop: () => {
      client.off('commandStarted', listener);
    },
  };
}
