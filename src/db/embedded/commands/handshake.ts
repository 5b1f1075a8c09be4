import type { Document } from 'bson';
import type { Context, Handler } from './common.js';

/**
 * MongoDB 7.0's wire version: within what driver 7 accepts (9..29) and tested with it.
 * There is no `setName` (a standalone), so drivers send no transaction numbers for retryable
 * writes, and no `topologyVersion`, so they poll `hello` instead of streaming it.
 */
const MAX_WIRE_VERSION = 21;
export const VERSION = '7.0.0';

function hello(
  command: Document,
  context: Context,
  primaryField: 'isWritablePrimary' | 'ismaster',
): Document {
  const mechanisms =
    context.credentials && typeof command.saslSupportedMechs === 'string'
      ? { saslSupportedMechs: ['SCRAM-SHA-256'] }
      : {};
  return {
    ...mechanisms,
    helloOk: true,
    [primaryField]: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connection.id,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
  };
}

const buildInfo: Handler = () => ({
  version: VERSION,
  gitVersion: 'embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16 * 1024 * 1024,
  storageEngines: ['lmdb'],
  javascriptEngine: 'none',
  modules: [],
});

export const handshakeCommands: Record<string, Handler> = {
  hello: (command, _db, context) => hello(command, context, 'isWritablePrimary'),
  isMaster: (command, _db, context) => hello(command, context, 'ismaster'),
  ismaster: (command, _db, context) => hello(command, context, 'ismaster'),
  ping: () => ({}),
  buildInfo,
  buildinfo: buildInfo,
  endSessions: () => ({}),
};
