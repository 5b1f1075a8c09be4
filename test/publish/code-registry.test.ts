import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { RANDOM_CODE_ALPHABET } from '../../src/domain/codes.js';
import { postJson, startTestApp } from '../support/app.js';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

let mongo: TestMongo;
let db: Database;
const dbName = uniqueDbName('legacy');

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
    await db.kidlisp.insertMany(
      taken.map((code, i) => ({
        code,
        source: `(legacy ${i})`,
        hash: `legacy-${i}`,
        when: new Date(),
        lastAccessed: new Date(),
        hits: 1,
      })),
    );

    // The service starts on that same database, with its own data directory.
    const app = await startTestApp({ MONGODB_URI: mongo.uri, MONGODB_DB: dbName });
    const service = app.service;
    try {
      expect(await db.codes.countDocuments()).toBe(taken.length);
      const takenSet = new Set(taken);
      await service.services.storage.put('2026/09/09/old.png', Buffer.from('png'), 'image/png');
      const media = await postJson(`${service.url}/api/track-media`, {
        slug: '2026/09/09/old.png',
        ext: 'png',
      });
      expect(media.status).toBe(200);
      expect(takenSet.has(media.body?.code)).toBe(false);
      expect(media.body?.code).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});
