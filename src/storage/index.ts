import { join } from 'node:path';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createFsStorage } from './fs-storage.js';
import { createS3Storage } from './s3-storage.js';
import { type ObjectStorage, UnsafeKeyError } from './storage.js';

export type { ObjectStorage, StoredObject } from './storage.js';
export { contentTypeFor } from './storage.js';

/** A backend failure (disk, network, bucket) reaches callers as one typed 503, whatever the backend. */
function withTypedFailures(storage: ObjectStorage, logger: Logger | undefined): ObjectStorage {
  const guard =
    <A extends unknown[], R>(action: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } catch (error) {
        if (error instanceof UnsafeKeyError) throw error;
        logger?.error({ err: error, action, key: args[0] }, 'object storage failed');
        throw new AppError(
          'STORAGE_UNAVAILABLE',
          'Object storage is temporarily unavailable; please retry.',
        );
      }
    };
  return {
    location: storage.location,
    put: guard('put', storage.put),
    exists: guard('exists', storage.exists),
    get: guard('get', storage.get),
    delete: guard('delete', storage.delete),
    sweepTemporaries: guard('sweepTemporaries', storage.sweepTemporaries),
  };
}

export function createStorage(
  config: Pick<Config, 'storage' | 'dataDir'>,
  logger?: Logger,
): ObjectStorage {
  const backend =
    config.storage.kind === 's3'
      ? createS3Storage(config.storage)
      : createFsStorage(join(config.dataDir, 'storage'));
  return withTypedFailures(backend, logger);
}
