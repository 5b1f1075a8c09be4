import type { ChatEntry } from '../chat-entry.js';
import type { ChatChannel } from '../inputs.js';

/** A message removed from a channel (marked `deleted: true`); only change streams report them. */
export interface ChatRemoval {
  id: string;
  instance: ChatChannel;
  /** The stored message after the change, when the source has it (for the filters). */
  entry?: ChatEntry;
}

/**
 * What a live chat subscriber receives. `added` carries the `(when, _id)` cursor a client resumes
 * after; a removal carries none (removals are not replayed after a reconnect).
 */
export type LiveChatEvent =
  | { type: 'added'; cursor: string; message: ChatEntry }
  | { type: 'removed'; removal: ChatRemoval };

/** Where a source delivers what it read, in commit (change stream) or `(when, _id)` (polling) order. */
export interface ChatSink {
  added(entries: ChatEntry[]): Promise<void>;
  removed(removals: ChatRemoval[]): Promise<void>;
}

/** One feed of one channel's changes, shared by every subscriber of that channel in the process. */
export interface ChatFeedSource {
  /** Settles once the source sees every change from now on (its stream is open, its start read). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}
