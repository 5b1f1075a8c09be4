import { MongoClient } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

/**
 * An embedded server in memory and a driver client on it, for the whole test file (started
 * before its tests, closed after them): call at the top of the file, then `client()` in tests.
 */
export function embeddedClientPerFile(): () => MongoClient {
  let server: EmbeddedMongo | undefined;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    server = await startEmbeddedMongo({ dataDir: null });
    client = await new MongoClient(server.uri).connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  return () => {
    if (!client) throw new Error('the embedded server is not started yet');
    return client;
  };
}
