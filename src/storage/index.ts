import { join } from 'node:path';
import type { Config } from '../config.js';
import { createFsStorage } from './fs-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { ObjectStorage } from './storage.js';

export type { ObjectStorage, StoredObject } from './storage.js';
export { contentTypeFor } from './storage.js';

export function createStorage(config: Pick<Config, 'storage' | 'dataDir'>): ObjectStorage {
  return config.storage.kind === 's3' ? createS3Storage(config.storage) : createFsStorage(join(config.dataDir, 'storage'));
}
