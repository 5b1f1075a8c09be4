import { ObjectId } from 'mongodb';
import type { Database } from '../../src/db/client.js';

export type Channel = 'system' | 'clock';

export interface MessageFixture {
  _id: ObjectId;
  instance: Channel;
  user?: string;
  text: string;
  when: Date;
  deleted?: true;
  hearts: number;
}

export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

export function message(
  instance: Channel,
  second: number,
  text: string,
  options: Partial<Omit<MessageFixture, 'instance' | 'text'>> = {},
): MessageFixture {
  return {
    _id: new ObjectId(),
    instance,
    text,
    when: new Date(T0 + second * 1000),
    hearts: 0,
    ...options,
  };
}

/**
 * Writes the messages straight into `chat-system` / `chat-clock` in the reference layout, their
 * hearts into `hearts`, plus one decoy heart of the other channel's type per message (never counted).
 */
export async function insertMessages(db: Database, messages: MessageFixture[]): Promise<void> {
  for (const channel of ['system', 'clock'] as const) {
    const docs = messages
      .filter((m) => m.instance === channel)
      .map(({ _id, user, text, when, deleted }) => ({
        _id,
        text,
        when,
        ...(user !== undefined ? { user } : {}),
        ...(deleted ? { deleted } : {}),
      }));
    if (docs.length) await db.chat[channel].insertMany(docs);
  }
  const hearts = messages.flatMap((m) => [
    ...Array.from({ length: m.hearts }, (_, i) => ({
      user: `fan-${i}`,
      type: `chat-${m.instance}`,
      for: m._id.toHexString(),
      when: m.when,
    })),
    {
      user: 'decoy',
      type: `chat-${m.instance === 'system' ? 'clock' : 'system'}`,
      for: m._id.toHexString(),
      when: m.when,
    },
  ]);
  if (hearts.length) await db.hearts.insertMany(hearts);
}

export async function insertHandles(db: Database, handles: Record<string, string>): Promise<void> {
  await db.handles.insertMany(
    Object.entries(handles).map(([account, handle]) => ({ _id: account, handle })),
  );
}

/** Oldest first by (when, _id), as pages present them. */
export const chronological = (messages: MessageFixture[]) =>
  [...messages].sort(
    (a, b) =>
      a.when.getTime() - b.when.getTime() || a._id.toHexString().localeCompare(b._id.toHexString()),
  );

export const visible = (messages: MessageFixture[], channels: Channel[] = ['system']) =>
  messages.filter((m) => !m.deleted && channels.includes(m.instance));
