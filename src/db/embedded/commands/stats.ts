import { arch, cpus, freemem, hostname, type as osType, release, totalmem } from 'node:os';
import type { Document } from 'bson';
import { namespaceNotFound } from '../errors.js';
import { indexBuildStates } from '../index-build.js';
import { collectionSizes } from '../sizes.js';
import type { Store } from '../store.js';
import { type Context, collectionArg, type Handler } from './common.js';
import { VERSION } from './handshake.js';

/** A scale factor for sizes (1 = bytes), as mongosh passes it. */
const scaleOf = (command: Document) =>
  typeof command.scale === 'number' && command.scale > 0 ? command.scale : 1;

export function databaseSizes(store: Store, db: string) {
  const colls = store.collections(db).map(collectionSizes);
  const sum = (pick: (s: (typeof colls)[number]) => number) =>
    colls.reduce((total, s) => total + pick(s), 0);
  return {
    collections: colls.length,
    objects: sum((s) => s.count),
    dataSize: sum((s) => s.size),
    storageSize: sum((s) => s.storageSize),
    indexes: sum((s) => Object.keys(s.indexSizes).length),
    indexSize: sum((s) => s.totalIndexSize),
  };
}

const dbStats: Handler = (command, db, context) => {
  const scale = scaleOf(command);
  const sizes = databaseSizes(context.store, db);
  return {
    db,
    collections: sizes.collections,
    views: 0,
    objects: sizes.objects,
    avgObjSize: sizes.objects > 0 ? sizes.dataSize / sizes.objects : 0,
    dataSize: sizes.dataSize / scale,
    storageSize: sizes.storageSize / scale,
    indexes: sizes.indexes,
    indexSize: sizes.indexSize / scale,
    totalSize: (sizes.storageSize + sizes.indexSize) / scale,
    scaleFactor: scale,
  };
};

export function collStatsOf(context: Context, db: string, name: string, scale = 1): Document {
  const coll = context.store.collection(db, name);
  if (!coll) throw namespaceNotFound(`${db}.${name}`);
  const sizes = collectionSizes(coll);
  const scaled = (bytes: number) => Math.round(bytes / scale);
  return {
    ns: coll.ns,
    count: sizes.count,
    size: scaled(sizes.size),
    avgObjSize: sizes.avgObjSize,
    storageSize: scaled(sizes.storageSize),
    freeStorageSize: 0,
    capped: false,
    nindexes: Object.keys(sizes.indexSizes).length,
    indexDetails: {},
    indexBuilds: [],
    totalIndexSize: scaled(sizes.totalIndexSize),
    totalSize: scaled(sizes.storageSize + sizes.totalIndexSize),
    indexSizes: Object.fromEntries(
      Object.entries(sizes.indexSizes).map(([index, bytes]) => [index, scaled(bytes)]),
    ),
    scaleFactor: scale,
  };
}

const collStats: Handler = (command, db, context) =>
  collStatsOf(context, db, collectionArg(command, 'collStats'), scaleOf(command));

const serverStatus: Handler = (_command, _db, context) => {
  const { activity } = context;
  const memory = process.memoryUsage();
  const uptimeMillis = Date.now() - activity.startedAt;
  return {
    host: hostname(),
    version: VERSION,
    process: 'mongod',
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    uptimeEstimate: Math.floor(uptimeMillis / 1000),
    localTime: new Date(),
    connections: {
      current: activity.connections.current,
      available: 1_000_000 - activity.connections.current,
      totalCreated: activity.connections.totalCreated,
    },
    opcounters: { ...activity.opcounters },
    mem: {
      bits: 64,
      resident: Math.round(memory.rss / 2 ** 20),
      virtual: Math.round((memory.rss + memory.external) / 2 ** 20),
      supported: true,
    },
    storageEngine: { name: 'lmdb', supportsCommittedReads: true, persistent: true },
    // This server's own section: the indexes being built in the background (../index-build.ts).
    indexBuilds: { inProgress: indexBuildStates(context.store) },
  };
};

const hostInfo: Handler = () => ({
  system: {
    currentTime: new Date(),
    hostname: hostname(),
    cpuAddrSize: 64,
    memSizeMB: Math.round(totalmem() / 2 ** 20),
    memLimitMB: Math.round(totalmem() / 2 ** 20),
    numCores: cpus().length,
    cpuArch: arch(),
    numaEnabled: false,
  },
  os: { type: osType(), name: osType(), version: release() },
  extra: { freeMemMB: Math.round(freemem() / 2 ** 20) },
});

export const statsCommands: Record<string, Handler> = {
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
  serverStatus,
  serverstatus: serverStatus,
  hostInfo,
  hostinfo: hostInfo,
};
