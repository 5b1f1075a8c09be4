/** Object storage behind one interface: the filesystem by default, or an S3-compatible bucket. */
export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface ObjectStorage {
  /** Where objects live, recorded on store-piece records (`bucket`). */
  readonly location: string;
  put(key: string, body: string | Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /**
   * Removes partial writes left by a process killed mid-write, older than `olderThan`; returns how
   * many. Backends whose writes are atomic (S3) have none.
   */
  sweepTemporaries(olderThan: Date): Promise<number>;
}

const contentTypes: Record<string, string> = {
  mjs: 'text/javascript; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  lisp: 'text/plain; charset=utf-8',
  lua: 'text/plain; charset=utf-8',
  png: 'image/png',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

export function contentTypeFor(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return contentTypes[ext] ?? 'application/octet-stream';
}

export class UnsafeKeyError extends Error {
  override name = 'UnsafeKeyError';
}

/** Keys are relative paths of safe segments; anything else never reaches a backend. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  const safe =
    key.length > 0 &&
    key.length <= 512 &&
    !key.startsWith('/') &&
    segments.every(
      (segment) =>
        segment !== '' &&
        segment !== '.' &&
        segment !== '..' &&
        /^[A-Za-z0-9._|@-]+$/.test(segment),
    );
  if (!safe) throw new UnsafeKeyError(`unsafe storage key: ${JSON.stringify(key)}`);
}
