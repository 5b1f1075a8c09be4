import { AppError } from '../../../app-error.js';
import type { ChatChannel } from '../inputs.js';
import type { LiveChatEvent } from './events.js';

/** What a subscriber reads: the events in order, until it ends (`return()`) or is ended. */
export interface LiveFeed<E> extends AsyncIterableIterator<E> {
  return(): Promise<IteratorResult<E>>;
}

export type ChatFeed = LiveFeed<LiveChatEvent>;

export interface SubscriberOptions<E = LiveChatEvent, C extends string = ChatChannel> {
  /** The sources it reads (the chat's channels; the works stream has one). */
  channels: readonly C[];
  clientKey: string;
  /** Events held for a reader that has not taken them yet; one more ends the subscriber. */
  bufferMax: number;
  /** The subscriber's filters: an event they refuse is not given to it. */
  accepts(event: E): boolean;
  /** The cursor a client resumes after, for the events that have one. */
  cursorOf(event: E): string | undefined;
  /** The cursor the subscriber started after, if any: where it resumes when it falls behind first. */
  startCursor?: string | undefined;
  /** Called once when the subscriber ends, however it ends. */
  onEnd(subscriber: Subscriber<E, C>): void;
}

type Waiter<E> = {
  resolve(result: IteratorResult<E>): void;
  reject(error: unknown): void;
};

const DONE = { value: undefined, done: true } as const;

/**
 * One subscriber of the hub: a bounded queue between the shared source and one reader. A reader
 * that falls `bufferMax` events behind still receives what is buffered, then SUBSCRIBER_BEHIND
 * with `resumeAfter`, the cursor of the last message it was given: everything after it can be
 * read back from the collection.
 */
export class Subscriber<E = LiveChatEvent, C extends string = ChatChannel> implements LiveFeed<E> {
  readonly channels: readonly C[];
  readonly clientKey: string;
  private readonly queue: E[] = [];
  private waiter: Waiter<E> | undefined;
  /** undefined while open; null once ended cleanly; the error to give the reader otherwise. */
  private ending: AppError | null | undefined;
  private lastCursor: string | undefined;

  constructor(private readonly options: SubscriberOptions<E, C>) {
    this.channels = options.channels;
    this.clientKey = options.clientKey;
    this.lastCursor = options.startCursor;
  }

  get open(): boolean {
    return this.ending === undefined;
  }

  deliver(event: E): void {
    if (this.ending !== undefined) return;
    if (!this.options.accepts(event)) return;
    const cursor = this.options.cursorOf(event);
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      if (cursor) this.lastCursor = cursor;
      waiter.resolve({ value: event, done: false });
      return;
    }
    if (this.queue.length >= this.options.bufferMax) {
      this.end(
        new AppError(
          'SUBSCRIBER_BEHIND',
          `This subscriber fell ${this.options.bufferMax} events behind and was closed; resume after its last message.`,
          this.lastCursor ? { resumeAfter: this.lastCursor } : {},
        ),
      );
      return;
    }
    if (cursor) this.lastCursor = cursor;
    this.queue.push(event);
  }

  /** Ends the subscriber: the reader takes what is buffered, then `reason` (or the end). */
  end(reason: AppError | null): void {
    if (this.ending !== undefined) return;
    this.ending = reason;
    this.options.onEnd(this);
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      this.ending = null;
      if (reason) waiter.reject(reason);
      else waiter.resolve(DONE);
    }
  }

  next(): Promise<IteratorResult<E>> {
    const event = this.queue.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ending !== undefined) {
      const reason = this.ending;
      this.ending = null;
      return reason ? Promise.reject(reason) : Promise.resolve(DONE);
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<E>> {
    this.queue.length = 0;
    this.end(null);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
