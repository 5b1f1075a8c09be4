import { ObjectId } from 'mongodb';

/** A position in the (when desc, _id desc) order of chat messages. */
export interface ChatPosition {
  when: Date;
  id: ObjectId;
}

/** Cursors over `(when, _id)` positions, opaque to clients: base64url of `<prefix>:<epoch ms>:<object id>`. */
export function positionCursors(prefix: string) {
  const text = new RegExp(`^${prefix}:(-?\\d{1,16}):([0-9a-f]{24})$`);
  return {
    encode: (position: ChatPosition): string =>
      Buffer.from(`${prefix}:${position.when.getTime()}:${position.id.toHexString()}`).toString(
        'base64url',
      ),
    decode(cursor: string): ChatPosition | undefined {
      const match = text.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
      if (!match) return undefined;
      const when = new Date(Number(match[1]));
      if (Number.isNaN(when.getTime())) return undefined;
      return { when, id: ObjectId.createFromHexString(match[2] as string) };
    },
  };
}

const chatCursors = positionCursors('chat');
export const encodeChatCursor = chatCursors.encode;
export const decodeChatCursor = chatCursors.decode;
