import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { isReservedCode, nameSlug } from '../../src/domain/codes.js';
import { createLogger } from '../../src/logger.js';
import { type RunningService, startService } from '../../src/service.js';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

let mongo: TestMongo;
let db: Database;
let dataDir: string;
let service: RunningService;
let logFile: string;
let logFd: number;
const dbName = uniqueDbName('reserved');

beforeAll(async () => {
  mongo = await startTestMongo();
  db = await connectDatabase(mongo.uri, dbName);
  // A KidLisp piece stored as `chat` before the service had a /chat page.
  await db.kidlisp.insertOne({
    code: 'chat',
    source: '(wipe blue)',
    hash: 'legacy-chat',
    when: new Date(),
    lastAccessed: new Date(),
    hits: 1,
  });
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-reserved-'));
  logFile = join(dataDir, 'service.log');
  logFd = openSync(logFile, 'w');
  const config = loadConfig({
    PORT: '0',
    MONGODB_URI: mongo.uri,
    MONGODB_DB: dbName,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  service = await startService(config, createLogger('warn', logFd));
});
afterAll(async () => {
  await service?.close();
  await db?.close();
  await mongo?.stop();
  if (logFd !== undefined) closeSync(logFd);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the chat path as a code', () => {
  it('is reserved: no new code or name slug can be chat', () => {
    expect(isReservedCode('chat')).toBe(true);
    expect(nameSlug('Chat')).toBeNull();
  });

  it('is checked in existing data at start: a stored chat code is reported, /chat stays the chat page and the piece stays at /$chat', async () => {
    await expect
      .poll(() => readFileSync(logFile, 'utf8'))
      .toMatch(/"codes":\["chat"\].*stored codes equal to paths of this service/);
    const page = await fetch(`${service.url}/chat`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="chat-messages"');
    const piece = await fetch(`${service.url}/$chat`);
    expect(piece.status).toBe(200);
    expect(await piece.text()).toContain('wipe');
  });
});
