import type { ChatEntry } from '../chat-entry.js';
import type { Subscriber, SubscriberOptions } from './subscriber.js';

/** How the process follows the chat: change streams where the server has them, else polling. */
export type LiveChatMode = 'change-stream' | 'polling';

export type SubscribeRequest = Pick<SubscriberOptions, 'channels' | 'clientKey' | 'startCursor'> & {
  /** The subscriber's filters (`from`, `search`); a removal without its message always matches. */
  matches(entry: ChatEntry): boolean;
};

/** The live chat of one process: one source per channel, shared by all of its subscribers. */
export interface ChatHub {
  readonly mode: LiveChatMode;
  /** Resolves once every source the subscriber needs sees every change from now on. */
  subscribe(request: SubscribeRequest): Promise<Subscriber>;
  /** Subscribers and running sources, for the metrics and the tests. */
  counts(): { subscribers: number; sources: number };
  /** Ends every subscriber and stops every source. */
  close(): Promise<void>;
}
