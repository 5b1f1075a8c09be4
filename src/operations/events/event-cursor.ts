import { type ChatPosition, positionCursors } from '../chat/cursor.js';

/** A position in the works stream: the recorded event's `(when, _id)`, as chat's positions. */
export type EventPosition = ChatPosition;

const eventCursors = positionCursors('works');
export const encodeEventCursor = eventCursors.encode;
export const decodeEventCursor = eventCursors.decode;
