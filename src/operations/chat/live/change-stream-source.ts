import {
  type ChangeStream,
  type ChangeStreamDocument,
  type Collection,
  MongoServerError,
  type ResumeToken,
} from 'mongodb';
import type { ChatRecord } from '../../../db/collections.js';
import type { Logger } from '../../../logger.js';
import type { ChatChannel } from '../inputs.js';
import type { ChatFeedSource, ChatSink } from './events.js';
import { storedEntry } from './stored-entry.js';

/** Codes a server answers `$changeStream` with when it has no change streams. */
const UNSUPPORTED_CODES = new Set([
  40573, // The $changeStream stage is only supported on replica sets (a standalone mongod)
  40324, // Unrecognized pipeline stage name
  115, // CommandNotSupported
  238, // NotImplemented
  59, // CommandNotFound
]);

/** Resume tokens older than the server's oplog can no longer resume. */
const HISTORY_LOST = 286;

const RETRY_MS = 500;

export const changeStreamsUnsupported = (error: unknown): boolean =>
  error instanceof MongoServerError &&
  typeof error.code === 'number' &&
  UNSUPPORTED_CODES.has(error.code);

/**
 * Whether the server answers `$changeStream` on this collection: true when it does, false when
 * it says it has none; any other failure (the database away) is thrown.
 */
export async function probeChangeStreams(collection: Collection<ChatRecord>): Promise<boolean> {
  const stream = collection.watch([], { maxAwaitTimeMS: 10 });
  try {
    await stream.tryNext();
    return true;
  } catch (error) {
    if (changeStreamsUnsupported(error)) return false;
    throw error;
  } finally {
    await stream.close().catch(() => undefined);
  }
}

const PIPELINE = [{ $match: { operationType: { $in: ['insert', 'update', 'replace'] } } }];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ChangeStreamSourceOptions {
  collection: Collection<ChatRecord>;
  channel: ChatChannel;
  logger: Logger;
}

/**
 * Follows one channel through a change stream: inserts are additions, an update or replace
 * that marks a message `deleted: true` is a removal. The driver resumes by itself after a
 * resumable error; when it gives up (the database away for long), or its collection was dropped,
 * the stream is reopened after the token of the last change seen, so nothing committed meanwhile
 * is missed.
 */
export function changeStreamSource(
  options: ChangeStreamSourceOptions,
  sink: ChatSink,
): ChatFeedSource {
  const { collection, channel, logger } = options;
  let token: ResumeToken | undefined;
  let stream: ChangeStream<ChatRecord> | undefined;
  let stopped = false;
  let markReady: () => void = () => undefined;
  let failStart: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failStart = reject;
  });
  let started = false;

  async function deliver(change: ChangeStreamDocument<ChatRecord>): Promise<void> {
    if (change.operationType === 'insert') {
      if (change.fullDocument.deleted !== true)
        await sink.added([storedEntry(change.fullDocument, channel)]);
    } else if (change.operationType === 'update') {
      if (change.updateDescription.updatedFields?.deleted === true) {
        const id = String(change.documentKey._id);
        const doc = change.fullDocument;
        await sink.removed([
          { id, instance: channel, ...(doc ? { entry: storedEntry(doc, channel) } : {}) },
        ]);
      }
    } else if (change.operationType === 'replace') {
      if (change.fullDocument.deleted === true) {
        const doc = change.fullDocument;
        await sink.removed([
          { id: String(doc._id), instance: channel, entry: storedEntry(doc, channel) },
        ]);
      }
    }
    token = change._id;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        stream = collection.watch<ChatRecord, ChangeStreamDocument<ChatRecord>>(PIPELINE, {
          fullDocument: 'updateLookup',
          // startAfter, unlike resumeAfter, also goes on after an `invalidate` (a dropped collection).
          ...(token ? { startAfter: token } : {}),
        });
        // The first round trip opens the stream: from here on nothing committed is missed.
        const first = await stream.tryNext();
        if (!started) {
          started = true;
          markReady();
        }
        if (first) await deliver(first);
        for await (const change of stream) {
          if (stopped) break;
          await deliver(change);
        }
      } catch (error) {
        // The driver's token also covers empty batches (postBatchResumeToken).
        token = (stream?.resumeToken as ResumeToken | undefined) ?? token;
        if (stopped) break;
        if (!started) {
          failStart(error);
          return;
        }
        if (error instanceof MongoServerError && error.code === HISTORY_LOST) {
          logger.error({ channel }, 'live chat change stream could not resume; changes were lost');
          token = undefined;
        } else {
          logger.warn({ channel, err: error }, 'live chat change stream failed; reopening it');
        }
        await sleep(RETRY_MS);
      } finally {
        await stream?.close().catch(() => undefined);
      }
    }
  }

  const running = run();
  return {
    ready,
    async stop() {
      stopped = true;
      await stream?.close().catch(() => undefined);
      await running;
    },
  };
}
