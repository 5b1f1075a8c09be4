import { createHash } from 'node:crypto';

/** SHA-256 (hex) of the trimmed source: the global deduplication key. */
export function sourceHash(source: string): string {
  return createHash('sha256').update(source.trim(), 'utf8').digest('hex');
}
