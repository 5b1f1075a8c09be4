import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

export interface TestMongo {
  uri: string;
  kind: 'external' | 'memory-server' | 'embedded';
  stop(): Promise<void>;
}

/** A mongod binary already on this machine, never one to download. */
function installedMongod(): string | undefined {
  const system = process.env.MONGOMS_SYSTEM_BINARY;
  if (system) return system;
  const cache = join(homedir(), '.cache', 'mongodb-binaries');
  if (!existsSync(cache)) return undefined;
  return readdirSync(cache)
    .filter((name) => name.startsWith('mongod'))
    .map((name) => join(cache, name))
    .find((path) => statSync(path).isFile());
}

/**
 * The one place tests choose a database: `MONGODB_URI` when set; else mongodb-memory-server on
 * an installed mongod; else the embedded server, in memory.
 */
export async function startTestMongo(): Promise<TestMongo> {
  const external = process.env.MONGODB_URI;
  if (external) return { uri: external, kind: 'external', stop: async () => {} };
  const binary = installedMongod();
  if (binary) {
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const server = await MongoMemoryServer.create({ binary: { systemBinary: binary } });
    return {
      uri: server.getUri(),
      kind: 'memory-server',
      stop: async () => {
        await server.stop();
      },
    };
  }
  const { startEmbeddedMongo } = await import('../../src/db/embedded/index.js');
  const server = await startEmbeddedMongo({ dataDir: null });
  return { uri: server.uri, kind: 'embedded', stop: () => server.close() };
}

export interface EmbeddedClient {
  /** The server's connection string. */
  uri: string;
  client: MongoClient;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/** The embedded server in memory and a driver client connected to it. */
export async function startEmbeddedClient(): Promise<EmbeddedClient> {
  const { startEmbeddedMongo } = await import('../../src/db/embedded/index.js');
  const server = await startEmbeddedMongo({ dataDir: null });
  const client = await new MongoClient(server.uri).connect();
  return {
    uri: server.uri,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

let databases = 0;

/** A database name no other test file (or run, on a shared server) uses. */
export function uniqueDbName(prefix: string): string {
  const safe = prefix.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 32);
  return `${safe}_${process.pid}_${Date.now().toString(36)}_${++databases}`;
}
