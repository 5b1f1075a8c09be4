import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';

/**
 * Writes that many workers make at once, sent together: while one bulk write is on its way, the
 * next ones gather, then leave in one round trip. Each caller's promise settles with its batch.
 */
export function createWriteBatch<T extends Document>(collection: Collection<T>) {
  let queued: {
    operation: AnyBulkWriteOperation<T>;
    done: () => void;
    failed: (error: unknown) => void;
  }[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await collection.bulkWrite(
          batch.map((one) => one.operation),
          { ordered: false },
        );
        for (const one of batch) one.done();
      } catch (error) {
        for (const one of batch) one.failed(error);
      }
    }
    flushing = false;
  }

  return (operation: AnyBulkWriteOperation<T>): Promise<void> =>
    new Promise<void>((done, failed) => {
      queued.push({ operation, done, failed });
      if (!flushing) void flush();
    });
}
