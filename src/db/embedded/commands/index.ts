import type { Document } from 'bson';
import { CommandError, errorReply, failedToParse, notSupported } from '../errors.js';
import { adminCommands } from './admin.js';
import { aggregateCommands } from './aggregate.js';
import { authCommands } from './auth.js';
import type { Context, Handler } from './common.js';
import { handshakeCommands } from './handshake.js';
import { readCommands } from './read.js';
import { statsCommands } from './stats.js';
import { writeCommands } from './write.js';

export type { Context } from './common.js';

const handlers = new Map<string, Handler>(
  Object.entries({
    ...handshakeCommands,
    ...readCommands,
    ...writeCommands,
    ...aggregateCommands,
    ...adminCommands,
    ...authCommands,
    ...statsCommands,
  }),
);

/** What a client may run before it has authenticated, as on mongod. */
const beforeAuthentication = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'saslStart',
  'saslContinue',
  'ping',
  'buildInfo',
  'buildinfo',
  'endSessions',
]);

/**
 * Features a standalone mongod refuses too (transactions), or that this server does not have.
 * Session ids, read preferences, write concerns, `maxTimeMS` and comments need nothing here.
 */
function refuseUnsupported(command: Document): void {
  if ('txnNumber' in command || 'startTransaction' in command || 'autocommit' in command) {
    throw new CommandError(
      20,
      'IllegalOperation',
      'Transaction numbers are only allowed on a replica set member or mongos',
    );
  }
  if (command.collation !== undefined) throw notSupported('collation');
  if (command.let !== undefined) throw notSupported("'let' variables");
}

/**
 * Runs one command; the reply always carries `ok` (1, or 0 with the error). A find whose scan
 * runs in slices replies later (a promise); writes (./write.ts) always reply at once.
 */
export function runCommand(
  command: Document,
  db: string,
  context: Context,
): Document | Promise<Document> {
  try {
    const name = Object.keys(command)[0];
    if (name === undefined) throw failedToParse('empty command');
    const handler = handlers.get(name);
    if (!handler) throw new CommandError(59, 'CommandNotFound', `no such command: '${name}'`);
    if (context.connection.mustAuthenticate && !beforeAuthentication.has(name)) {
      throw new CommandError(13, 'Unauthorized', `Command ${name} requires authentication`);
    }
    refuseUnsupported(command);
    const reply = handler(command, db, context);
    if (!(reply instanceof Promise)) return { ...reply, ok: 1 };
    return reply.then((done) => ({ ...done, ok: 1 }), errorReply);
  } catch (error) {
    return errorReply(error);
  }
}
