import type { Database } from '../db/client.js';

/** `lastUsed` is a day-to-day fact: written at most once a minute per key and process. */
const WRITE_EVERY_MS = 60_000;
const written = new Map<string, number>();

/** Records that a key was used now, without making the request wait for the write. */
export function noteKeyUse(db: Database, keyHash: string, now = Date.now()): void {
  const last = written.get(keyHash);
  if (last !== undefined && now - last < WRITE_EVERY_MS) return;
  if (written.size > 10_000) written.clear();
  written.set(keyHash, now);
  db.apiTokens.updateOne({ _id: keyHash }, { $set: { lastUsed: new Date(now) } }).catch(() => {
    // A missed lastUsed is not worth failing (or logging) the request it came with.
    written.delete(keyHash);
  });
}
