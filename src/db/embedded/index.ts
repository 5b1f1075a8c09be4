import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from 'bson';
import { Activity } from './activity.js';
import { ChangeStreams } from './change-streams.js';
import { runCommand } from './commands/index.js';
import { convertOldFormat, hasOldFormat } from './convert.js';
import { type Credentials, loadCredentials } from './credentials.js';
import { Cursors } from './cursors.js';
import { errorReply } from './errors.js';
import { GroupCommit } from './group-commit.js';
import { IndexBuilds } from './index-build.js';
import { PostingFolds } from './posting-folds.js';
import './regex.js';
import { lockDataDir } from './lock.js';
import { listen, type RequestHandler, type WireServer } from './server.js';
import { Store } from './store.js';
import { type Logger, silentLogger } from './types.js';

export interface EmbeddedMongoOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Listen on this Unix socket (made 0600) instead of TCP. */
  socketPath?: string;
  /** TCP clients must authenticate with SCRAM-SHA-256, as the user in `<dataDir>/credentials.json`. */
  authenticate?: boolean;
  /** Where to leave the connection string (credentials included), 0600, while running. */
  endpointFile?: string;
  /** Where the data lives; null keeps it in a temporary directory removed on close. */
  dataDir: string | null;
  logger?: Logger;
}

export interface EmbeddedMongo {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true`, with credentials when required. */
  uri: string;
  port: number;
  /** Stops listening, closes connections and the data files, releases the lock. */
  close(): Promise<void>;
}

/** Like mongod's TTL monitor. */
const TTL_INTERVAL_MS = 60_000;

/** Commands that change data: each runs in one write transaction, replied to after its commit. */
const writeCommands = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'create',
  'drop',
  'createIndexes',
  'dropIndexes',
  'dropDatabase',
]);

/** The data directory, locked, with the store opened in it; a temporary one when null. */
function openStore(
  dataDir: string | null,
  logger: Logger,
): { store: Store; dir: string; release(): void } {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'embedded-mongo-'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const unlock = lockDataDir(dir);
  let store: Store | undefined;
  try {
    store = new Store(dir);
    if (store.split > 0)
      logger.info(
        { dir, collections: store.split },
        'embedded database: moved each collection into tables of its own (indexes rebuilt)',
      );
    if (hasOldFormat(dir)) convertOldFormat(dir, store, logger);
    return {
      store,
      dir,
      release: () => {
        unlock();
        if (dataDir === null) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    void store?.close();
    unlock();
    throw error;
  }
}

function connectionString(
  socketPath: string | undefined,
  host: string,
  port: number,
  credentials: Credentials | undefined,
): string {
  if (socketPath) return `mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`;
  const address = host.includes(':') ? `[${host}]` : host;
  const login = credentials
    ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@`
    : '';
  const auth = credentials ? '&authSource=admin&authMechanism=SCRAM-SHA-256' : '';
  return `mongodb://${login}${address}:${port}/?directConnection=true${auth}`;
}

/** Starts a MongoDB-compatible server (wire protocol, on LMDB, `bson` and `mingo`) in this process. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const { store, dir, release } = openStore(options.dataDir, logger);
  const credentials =
    options.authenticate && !options.socketPath ? loadCredentials(dir) : undefined;
  const cursors = new Cursors();
  const activity = new Activity();
  const changeStreams = new ChangeStreams(store);
  const folds = new PostingFolds(store, logger);
  const commits = new GroupCommit(store, () => {
    changeStreams.committed();
    folds.wake();
  });
  const builds = new IndexBuilds(store, logger, () => cursors.reading > 0);
  const handle: RequestHandler = (request, connection) => {
    const { command, db } = request;
    const name = Object.keys(command)[0] ?? '';
    const statements = command.documents ?? command.updates ?? command.deletes;
    activity.count(name, Array.isArray(statements) ? statements.length : 1);
    const context = { store, cursors, changeStreams, connection, credentials, activity };
    if (name === 'getMore' && !connection.mustAuthenticate && changeStreams.has(command.getMore))
      return changeStreams.getMore(command).then(
        (reply) => ({ ...reply, ok: 1 }),
        (error: unknown) => errorReply(error),
      );
    if (!writeCommands.has(name)) return runCommand(command, db, context);
    const written = commits.submit(() => runCommand(command, db, context));
    if (name !== 'createIndexes') return written;
    return written.then((reply) => {
      builds.wake();
      return reply.ok === 1 ? untilBuilt(command, db, reply) : reply;
    });
  };
  /**
   * createIndexes answers once the indexes it made are built, as mongod's does (other commands
   * run meanwhile); with `buildInBackground: true` (this server's own option, which the service
   * sends at start-up: src/db/indexes.ts) it answers at once.
   */
  const untilBuilt = (command: Document, db: string, reply: Document) => {
    if (command.buildInBackground === true || !Array.isArray(command.indexes)) return reply;
    const names = command.indexes.map((spec: Document) => spec?.name);
    const built = names
      .filter((index): index is string => typeof index === 'string')
      .map((index) => builds.whenBuilt(db, String(command.createIndexes), index));
    return Promise.all(built).then(() => reply, errorReply);
  };
  let server: WireServer;
  try {
    const address = options.socketPath
      ? { path: options.socketPath }
      : { host, port: options.port ?? 0 };
    server = await listen(address, handle, logger, activity, credentials !== undefined);
  } catch (error) {
    await store.close();
    release();
    throw error;
  }
  builds.restartOutdated();
  builds.wake();
  const ttl = setInterval(() => {
    try {
      store.write(() => store.expire(Date.now()));
      changeStreams.committed();
    } catch (error) {
      logger.error({ err: error }, 'embedded database: expiring TTL documents failed');
    }
  }, TTL_INTERVAL_MS).unref();

  const uri = connectionString(options.socketPath, host, server.port, credentials);
  if (options.endpointFile)
    writeFileSync(options.endpointFile, JSON.stringify({ uri, pid: process.pid }), { mode: 0o600 });
  logger.info(
    { address: options.socketPath ?? `${host}:${server.port}`, dataDir: options.dataDir },
    'embedded database listening',
  );
  let closing: Promise<void> | undefined;
  return {
    uri,
    port: server.port,
    close: () =>
      (closing ??= (async () => {
        clearInterval(ttl);
        builds.stop();
        folds.stop();
        await server.close();
        if (options.endpointFile) rmSync(options.endpointFile, { force: true });
        cursors.closeAll();
        changeStreams.closeAll();
        await store.close();
        release();
      })()),
  };
}
