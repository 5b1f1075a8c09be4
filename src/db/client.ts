import { type Collection, type Db, type Document, MongoClient } from 'mongodb';
import type { TraceScope } from '../telemetry/active-span.js';
import {
  type ApiTokenRecord,
  type ChatRecord,
  type ClockRecord,
  type CodeRecord,
  collectionNames,
  type HandleClaimRecord,
  type HandleRecord,
  type HeartRecord,
  type ItemHitRecord,
  type KidlispRecord,
  type PaintingRecord,
  type PieceRecord,
  type RateLimitRecord,
  type SessionRecord,
  type SignInRecord,
  type TapeRecord,
  type ThumbnailRecord,
} from './collections.js';
import { databaseIn } from './traced-database.js';

/**
 * The longest a query that scans (chat windows, searches, rankings) may run on the server:
 * a search matching nothing over a million chat messages examines them all in about this time
 * on the embedded database (bench/db.ts), and still answers within 5 s.
 */
export const QUERY_TIME_LIMIT_MS = 4_500;

export interface Database {
  client: MongoClient;
  db: Db;
  kidlisp: Collection<KidlispRecord>;
  clocks: Collection<ClockRecord>;
  pieces: Collection<PieceRecord>;
  paintings: Collection<PaintingRecord>;
  tapes: Collection<TapeRecord>;
  chat: { system: Collection<ChatRecord>; clock: Collection<ChatRecord> };
  hearts: Collection<HeartRecord>;
  handles: Collection<HandleRecord>;
  codes: Collection<CodeRecord>;
  apiTokens: Collection<ApiTokenRecord>;
  rateLimits: Collection<RateLimitRecord>;
  itemHits: Collection<ItemHitRecord>;
  thumbnails: Collection<ThumbnailRecord>;
  handleClaims: Collection<HandleClaimRecord>;
  sessions: Collection<SessionRecord>;
  signIns: Collection<SignInRecord>;
  /** Only when seen from a span of a traced request (src/db/traced-database.ts): that span. */
  trace?: TraceScope;
  /** This database as `scope`, a span of a traced request, sees it: its commands are the span's children. */
  seenFrom(scope: TraceScope): Database;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Fail fast when the server is away, so requests answer 503 instead of hanging. */
  serverSelectionTimeoutMS?: number;
  monitorCommands?: boolean;
  /** 0: no limit on waiting for a reply (an import's createIndexes waits for the build). */
  socketTimeoutMS?: number;
}

/** One client per process: explicit pool size and timeouts. */
export async function connectDatabase(
  uri: string,
  dbName: string,
  options: ConnectOptions = {},
): Promise<Database> {
  const client = new MongoClient(uri, {
    maxPoolSize: 20,
    minPoolSize: 2,
    maxIdleTimeMS: 60_000,
    connectTimeoutMS: 5_000,
    socketTimeoutMS: options.socketTimeoutMS ?? 30_000,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 2_000,
    heartbeatFrequencyMS: 2_000,
    appName: 'publish-gateway',
    // Unset unless asked, so `?monitorCommands=true` in the URI can turn it on (the tests count commands).
    ...(options.monitorCommands === undefined ? {} : { monitorCommands: options.monitorCommands }),
  });
  await client.connect();
  return wrap(client, client.db(dbName));
}

function wrap(client: MongoClient, db: Db): Database {
  const collection = <T extends Document>(name: string) => db.collection<T>(name);
  const database: Database = {
    client,
    db,
    kidlisp: collection(collectionNames.kidlisp),
    clocks: collection(collectionNames.clocks),
    pieces: collection(collectionNames.pieces),
    paintings: collection(collectionNames.paintings),
    tapes: collection(collectionNames.tapes),
    chat: {
      system: collection(collectionNames.chatSystem),
      clock: collection(collectionNames.chatClock),
    },
    hearts: collection(collectionNames.hearts),
    handles: collection(collectionNames.handles),
    codes: collection(collectionNames.codes),
    apiTokens: collection(collectionNames.apiTokens),
    rateLimits: collection(collectionNames.rateLimits),
    itemHits: collection(collectionNames.itemHits),
    thumbnails: collection(collectionNames.thumbnails),
    handleClaims: collection(collectionNames.handleClaims),
    sessions: collection(collectionNames.sessions),
    signIns: collection(collectionNames.signIns),
    async ping() {
      await db.command({ ping: 1 }, { timeoutMS: 2_000 });
    },
    close: () => client.close(),
    seenFrom: (scope) => databaseIn(database, scope),
  };
  return database;
}
