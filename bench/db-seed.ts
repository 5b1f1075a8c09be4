import { join } from 'node:path';
import { type Document, MongoClient, ObjectId } from 'mongodb';
import { startEmbeddedMongo } from '../src/db/embedded/index.js';
import { ensureIndexes } from '../src/db/indexes.js';
import { createLogger } from '../src/logger.js';

/**
 * `tsx bench/db-seed.ts <DATA_DIR> <messages> [--no-trigram]`: a service's data directory
 * (`<DATA_DIR>/db`, database `aesthetic`) holding `messages` chat messages in `chat-system`
 * with the service's indexes (src/db/indexes.ts); `--no-trigram` leaves the trigram indexes
 * out, as a release before them would. Messages are stored through the driver, 5,000 at a
 * time. Used by bench/db-restore.ts and bench/db-contention.ts.
 */
const WORDS = ['paint', 'clock', 'hello', 'tape', 'line', 'ok', 'nice', 'wow', 'draw', 'loop'];
const ACCOUNTS = 1_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const BATCH = 5_000;

/** A message's text: words and its number, with no `zq` anywhere (the contention search). */
export const messageText = (i: number) =>
  `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} message ${i} ${WORDS[(i * 3) % WORDS.length]}`;

export async function seed(dataDir: string, messages: number, trigram: boolean): Promise<void> {
  const server = await startEmbeddedMongo({
    dataDir: join(dataDir, 'db'),
    socketPath: join(dataDir, 'db', 'seed.sock'),
  });
  const client = await new MongoClient(server.uri).connect();
  try {
    const db = client.db('aesthetic');
    await ensureIndexes(db, createLogger('silent'), { embedded: trigram });
    const chat = db.collection('chat-system');
    const from = await chat.estimatedDocumentCount();
    const started = performance.now();
    for (let at = from; at < messages; at += BATCH) {
      const docs: Document[] = [];
      for (let i = at; i < Math.min(messages, at + BATCH); i++)
        docs.push({
          _id: new ObjectId(),
          user: `account-${i % ACCOUNTS}`,
          text: messageText(i),
          when: new Date(T0 + i * 1_000),
        });
      await chat.insertMany(docs, { ordered: false });
      if ((at / BATCH) % 20 === 0)
        process.stderr.write(`seed: ${at + docs.length} of ${messages} messages\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`seed: ${messages - from} messages in ${seconds.toFixed(1)} s\n`);
  } finally {
    await client.close();
    await server.close();
  }
}

if (process.argv[1]?.endsWith('db-seed.ts') || process.argv[1]?.endsWith('db-seed.js')) {
  const [dir, count, flag] = process.argv.slice(2);
  if (!dir || !count) throw new Error('usage: db-seed.ts <DATA_DIR> <messages> [--no-trigram]');
  await seed(dir, Number(count), flag !== '--no-trigram');
}
