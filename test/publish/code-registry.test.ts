import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { startService } from '../../src/main.js';
import { RANDOM_CODE_ALPHABET } from '../../src/domain/codes.js';
import { postJson } from '../support/app.js';
import { startTestMongo, type TestMongo } from '../support/mongo.js';

let mongo: TestMongo;
let db: Database;
const dbName = `legacy_${process.pid}`;

beforeAll(async () => {
  mongo = await startTestMongo();
  db = await connectDatabase(mongo.uri, dbName);
});
afterAll(async () => {
  await db.close();
  await mongo.stop();
});

describe('an existing database', () => {
  it('never hands out a code that a record written before the service already holds', async () => {
    // Every 3-character code is taken by legacy KidLisp records, written without the registry.
    const alphabet = [...RANDOM_CODE_ALPHABET];
    const taken = alphabet.flatMap((a) => alphabet.flatMap((b) => alphabet.map((c) => a + b + c)));
    await db.kidlisp.insertMany(taken.map((code, i) => ({ code, source: `(legacy ${i})`, hash: `legacy-${i}`, when: new Date(), lastAccessed: new Date(), hits: 1 })));

    const config = loadConfig({ PORT: '0', MONGODB_URI: mongo.uri, MONGODB_DB: dbName, LOG_LEVEL: 'silent', DATA_DIR: '/tmp/gateway-legacy' });
    const service = await startService(config, createLogger('silent'));
    try {
      expect(await db.codes.countDocuments()).toBe(taken.length);
      const takenSet = new Set(taken);
      await service.services.storage.put('2026/09/09/old.png', Buffer.from('png'), 'image/png');
      const media = await postJson(`${service.url}/api/track-media`, { slug: '2026/09/09/old.png', ext: 'png' });
      expect(media.status).toBe(200);
      expect(takenSet.has(media.body?.code)).toBe(false);
      expect(media.body?.code).toHaveLength(4);
    } finally {
      await service.close();
    }
  });
});
