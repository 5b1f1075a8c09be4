import { ObjectId } from 'mongodb';

/** A position in the (when desc, _id desc) order of chat messages. */
export interface ChatPosition {
  when: Date;
  id: ObjectId;
}

const CURSOR_TEXT = /^chat:(-?\d{1,16}):([0-9a-f]{24})$/;

/** Opaque to clients: base64url of `chat:<epoch ms>:<object id>`. */
export function encodeChatCursor(position: ChatPosition): string {
  return Buffer.from(`chat:${position.when.getTime()}:${position.id.toHexString()}`).toString(
    'base64url',
  );
}

export function decodeChatCursor(cursor: string): ChatPosition | undefined {
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const when = new Date(Number(match[1]));
  if (Number.isNaN(when.getTime())) return undefined;
  return { when, id: ObjectId.createFromHexString(match[2] as string) };
}
