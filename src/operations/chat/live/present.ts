import type { Database } from '../../../db/client.js';
import type { ChatEntry } from '../chat-entry.js';
import { createChatLoaders, heartsOf, senderOf } from '../loaders.js';

/** Reads the sender's handle and the hearts of a batch once (one command each), for every subscriber. */
export async function presentEntries(db: Database, entries: ChatEntry[]): Promise<ChatEntry[]> {
  const loaders = createChatLoaders(db);
  return Promise.all(
    entries.map(async (entry) => {
      const [from, hearts] = await Promise.all([
        senderOf(loaders, entry.user),
        heartsOf(loaders, entry),
      ]);
      return { ...entry, presented: { from, hearts } };
    }),
  );
}
