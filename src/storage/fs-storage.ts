import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { assertSafeKey, contentTypeFor, type ObjectStorage } from './storage.js';

/** A write in progress: `<key>.<12 hex>.tmp`, renamed to `<key>` when whole. */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Objects as files under one directory; writes land whole (temp file + rename). */
export function createFsStorage(root: string): ObjectStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(base, key);
  };
  return {
    location: `file://${base}`,
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, body);
      await rename(temp, path);
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async get(key) {
      try {
        return { body: await readFile(pathOf(key)), contentType: contentTypeFor(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweepTemporaries(olderThan) {
      const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(
        (error: unknown) => {
          if (isMissing(error)) return [];
          throw error;
        },
      );
      let removed = 0;
      for (const entry of entries) {
        if (!entry.isFile() || !TEMPORARY.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        const stats = await stat(path).catch(() => null);
        if (stats && stats.mtime < olderThan) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
