import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsStorage } from '../../src/storage/fs-storage.js';
import { createS3Storage } from '../../src/storage/s3-storage.js';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { startS3Server } from '../support/s3.js';

const backends: [string, () => Promise<{ storage: ObjectStorage; stop(): Promise<void> }>][] = [
  [
    'filesystem',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'gateway-fs-'));
      return {
        storage: createFsStorage(root),
        stop: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const s3 = await startS3Server('gateway-media');
      return { storage: createS3Storage(s3.options), stop: s3.stop };
    },
  ],
];

describe.each(backends)('%s storage', (_name, start) => {
  let storage: ObjectStorage;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, stop } = await start());
  });
  afterAll(() => stop());

  it('stores, finds, reads and deletes an object', async () => {
    const key = 'auth0|someone/2026/01/02/abc.mjs';
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, 'export function paint() {}', 'text/javascript; charset=utf-8');
    expect(await storage.exists(key)).toBe(true);
    const object = await storage.get(key);
    expect(object?.body.toString()).toBe('export function paint() {}');
    expect(object?.contentType).toMatch(/^text\/javascript/);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
  });

  it('keeps binary content intact', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await storage.put('2026/01/02/bytes.png', bytes, 'image/png');
    expect((await storage.get('2026/01/02/bytes.png'))?.body.equals(bytes)).toBe(true);
  });

  it('refuses keys that could escape or confuse the store', async () => {
    for (const key of ['../x.png', '/abs.png', 'a//b.png', 'a/./b.png', 'a\\b.png', '']) {
      await expect(storage.put(key, 'x', 'text/plain')).rejects.toThrow(/unsafe storage key/);
    }
  });

  it('treats a missing object as absent, not as an error', async () => {
    expect(await storage.exists('2030/01/01/never.zip')).toBe(false);
    await expect(storage.delete('2030/01/01/never.zip')).resolves.toBeUndefined();
  });
});
