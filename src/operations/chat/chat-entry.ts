import type { ObjectId } from 'mongodb';
import type { ChatChannel } from './inputs.js';

/** A stored message as read, tagged with its channel; `from` and `hearts` come from the loaders. */
export interface ChatEntry {
  _id: ObjectId;
  id: string;
  user: string | undefined;
  text: string;
  when: Date;
  instance: ChatChannel;
  /** Sender and hearts read once for every live subscriber (src/operations/chat/live/present.ts). */
  presented?: { from: string; hearts: number };
}
