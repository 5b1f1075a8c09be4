import { ObjectId } from 'mongodb';
import { vi } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { connectDatabase } from '../../src/db/client.js';
import { probeChangeStreams } from '../../src/operations/chat/live/index.js';
import { startTestMongo, uniqueDbName } from '../support/mongo.js';
import type { SseStream } from '../support/sse.js';

/** Whether the test database has change streams (the embedded server has; a standalone mongod not). */
export async function testDatabaseHasChangeStreams(): Promise<boolean> {
  const mongo = await startTestMongo();
  try {
    const db = await connectDatabase(mongo.uri, uniqueDbName('probe'));
    try {
      return await probeChangeStreams(db.chat.system);
    } finally {
      await db.close();
    }
  } finally {
    await mongo.stop();
  }
}

export const CHANGE_STREAMS_MISSING =
  'the test database has no change streams ($changeStream); removals and resume tokens need them';

let tick = 0;
/** A message written straight into chat-<channel>, as the chat server would, `when` now and increasing. */
export async function insertLive(
  db: Database,
  channel: 'system' | 'clock',
  text: string,
  user?: string,
): Promise<{ _id: ObjectId; text: string; when: Date }> {
  const doc = {
    _id: new ObjectId(),
    text,
    when: new Date(Date.now() + ++tick),
    ...(user ? { user } : {}),
  };
  await db.chat[channel].insertOne(doc);
  return doc;
}

/** The messages of a REST stream, parsed, with their event ids. */
export const streamMessages = (stream: SseStream) =>
  stream.events
    .filter((event) => event.event === 'message')
    .map(
      (event) =>
        ({ ...(JSON.parse(event.data) as Record<string, any>), eventId: event.id }) as Record<
          string,
          any
        >,
    );

/**
 * Waits for deliveries are about what arrives, not how fast: on a loaded machine a message may
 * take longer than expect.poll's default second, so the tests of this file wait up to 10 s.
 */
export function waitForDeliveriesPatiently(): void {
  vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 20 } } });
}
