import { createHash } from 'node:crypto';

/**
 * File names of a dump in mongodump's layout, as mongo-tools writes and reads them (mongodump's
 * `outputPath` and `EscapeCollectionName`, mongorestore's `getInfoFromFile`):
 *
 * - a collection's name is percent-encoded as Go's `url.PathEscape` does: every UTF-8 byte but
 *   the letters, digits, `-_.~` and `$&+:=@` becomes `%XX` (upper-case hex), so `/` and `%`
 *   never reach the file system as themselves;
 * - an encoded name longer than 238 bytes keeps its first 208, then `%24` and the unpadded
 *   base64url SHA-1 of the name (238 bytes in all), and the name is read back from the
 *   metadata file's `collectionName`;
 * - a database's name is its directory's name as it is: MongoDB allows no `/\. "$` or NUL in
 *   one, nor more than 63 bytes, and mongorestore refuses a directory that breaks those rules.
 */

/**
 * A dump that cannot be written or read as asked, the message saying why: refused before anything
 * was written or read outside it, or a damaged file.
 */
export class DumpError extends Error {
  override name = 'DumpError';
}

const LONGEST_STEM = 238;
const KEPT_OF_LONG_STEM = 208;
const kept = /^[A-Za-z0-9\-_.~$&+:=@]$/;

/** The file name, without `.bson` or `.metadata.json`, that holds collection `name`. */
export function collectionFileStem(name: string): string {
  let escaped = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    escaped +=
      byte < 0x80 && kept.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (escaped.length <= LONGEST_STEM) return escaped;
  const hash = createHash('sha1').update(name, 'utf8').digest('base64url');
  return `${escaped.slice(0, KEPT_OF_LONG_STEM)}%24${hash}`;
}

/** A stem mongodump shortened: the collection's name is only in its metadata file. */
export const isShortenedStem = (stem: string) =>
  stem.length === LONGEST_STEM && stem.includes('%24');

/** The collection name a (not shortened) stem encodes; undefined when it is no valid encoding. */
export function collectionNameOfStem(stem: string): string | undefined {
  try {
    const name = decodeURIComponent(stem);
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** Whether MongoDB allows `name` for a database (and so as a directory of the dump). */
export const isDatabaseName = (name: string) =>
  name !== '' && Buffer.byteLength(name, 'utf8') <= 63 && !/[/\\. "$\0]/.test(name);
