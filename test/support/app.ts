import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/context.js';
import type { Database } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { type RunningService, startService } from '../../src/service.js';
import { startTestMongo, type TestMongo } from './mongo.js';

export interface TestApp {
  url: string;
  service: RunningService;
  services: Services;
  db: Database;
  dataDir: string;
  mongo: TestMongo;
  close(): Promise<void>;
}

let databaseCounter = 0;

export interface TestAppOptions {
  /** Emit the driver's command events on `db.client` (see test/support/commands.ts). */
  monitorCommands?: boolean;
}

function withUriOption(uri: string, option: string): string {
  if (uri.includes('?')) return `${uri}&${option}`;
  return /^mongodb(\+srv)?:\/\/[^/]*\//.test(uri) ? `${uri}?${option}` : `${uri}/?${option}`;
}

/**
 * A running service over real HTTP, on its own database and data directory. A MONGODB_URI in
 * `env` is used as it is (the caller owns that server); otherwise a test server is started.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const given = env.MONGODB_URI;
  const mongo: TestMongo = given
    ? { uri: given, kind: 'external', stop: async () => {} }
    : await startTestMongo();
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
  const config = loadConfig({
    PORT: '0',
    MONGODB_URI: options.monitorCommands
      ? withUriOption(mongo.uri, 'monitorCommands=true')
      : mongo.uri,
    MONGODB_DB: `test_${process.pid}_${++databaseCounter}_${Date.now().toString(36)}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLISH: '1000000',
    ...env,
  });
  const service = await startService(config, createLogger(config.logLevel));
  return {
    url: service.url,
    service,
    services: service.services,
    db: service.services.db,
    dataDir,
    mongo,
    async close() {
      await service.close();
      await mongo.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON and returns the status, headers and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, any>) : undefined,
  };
}

/** Runs a GraphQL operation over HTTP. */
export async function graphql(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: any;
      errors?: { message: string; extensions?: Record<string, any> }[];
    },
  };
}
