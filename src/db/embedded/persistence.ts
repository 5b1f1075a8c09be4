import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Document } from 'bson';
import { encodeRecord, scanRecords } from './logfile.js';
import type { Store } from './store.js';
import type { Logger } from './types.js';

const SNAPSHOT = 'snapshot.bson';
const SNAPSHOT_TMP = 'snapshot.tmp';
const journalName = (generation: number) => `journal-${generation}.log`;
/** Compact once the journal outgrows both this and the snapshot. */
const COMPACT_MIN_BYTES = 16 * 1024 * 1024;
/** Like mongod's journal commit interval: how stale the disk (not the page cache) may be. */
const SYNC_INTERVAL_MS = 100;

export class StorageFailure extends Error {
  override name = 'StorageFailure';
}

/**
 * The store on disk: `snapshot.bson` (a generation number, then the state as records) plus
 * `journal-<generation>.log` (every change since, appended before the write is acknowledged).
 * Compaction writes a new snapshot under the next generation and starts an empty journal.
 */
export class Persistence {
  #generation = 0;
  #fd = -1;
  #journalBytes = 0;
  #snapshotBytes = 0;
  #staged: Buffer[] = [];
  #dirty = false;
  #failure: Error | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly store: Store,
    private readonly logger: Logger,
  ) {
    this.#load();
    store.setJournal((record) => this.#staged.push(encodeRecord(record)));
    this.#timer = setInterval(() => this.#sync(), SYNC_INTERVAL_MS).unref();
  }

  /** Appends the changes of the command just run; throws if they could not be written. */
  commit(): void {
    if (this.#failure) throw this.#failure;
    if (this.#staged.length === 0) return;
    const bytes =
      this.#staged.length === 1 ? (this.#staged[0] as Buffer) : Buffer.concat(this.#staged);
    this.#staged = [];
    try {
      writeSync(this.#fd, bytes);
    } catch (error) {
      this.#failure = new StorageFailure(
        `writing the journal failed, no more writes are accepted: ${(error as Error).message}`,
      );
      this.logger.error({ err: error, dir: this.dir }, 'embedded database journal write failed');
      throw this.#failure;
    }
    this.#journalBytes += bytes.length;
    this.#dirty = true;
    if (this.#journalBytes <= Math.max(COMPACT_MIN_BYTES, this.#snapshotBytes)) return;
    try {
      this.#compact();
    } catch (error) {
      this.logger.error(
        { err: error, dir: this.dir },
        'embedded database compaction failed; the journal keeps growing',
      );
    }
  }

  /** Compacts (so the next start reads one snapshot) and closes the journal. */
  close(): void {
    clearInterval(this.#timer);
    try {
      if (!this.#failure) this.#compact();
    } finally {
      closeSync(this.#fd);
    }
  }

  #load(): void {
    const snapshotPath = join(this.dir, SNAPSHOT);
    if (existsSync(snapshotPath)) {
      const bytes = readFileSync(snapshotPath);
      let header: Document | undefined;
      const valid = scanRecords(snapshotPath, bytes, (record) => {
        if (header) this.store.apply(record);
        else header = record;
      });
      if (valid !== bytes.length || typeof header?.generation !== 'number') {
        throw new StorageFailure(`${snapshotPath} is damaged; restore it from a backup`);
      }
      this.#generation = header.generation;
      this.#snapshotBytes = bytes.length;
    }
    const journalPath = join(this.dir, journalName(this.#generation));
    let replayed = 0;
    if (existsSync(journalPath)) {
      const bytes = readFileSync(journalPath);
      this.#journalBytes = scanRecords(journalPath, bytes, (record) => {
        this.store.apply(record);
        replayed++;
      });
      if (this.#journalBytes < bytes.length) {
        const droppedBytes = bytes.length - this.#journalBytes;
        this.logger.warn(
          { file: journalPath, droppedBytes },
          'embedded database: dropped a torn record at the end of the journal',
        );
      }
    }
    for (const name of readdirSync(this.dir)) {
      if (
        name === SNAPSHOT_TMP ||
        (/^journal-\d+\.log$/.test(name) && name !== journalName(this.#generation))
      ) {
        unlinkSync(join(this.dir, name));
      }
    }
    this.#fd = openSync(journalPath, 'a');
    ftruncateSync(this.#fd, this.#journalBytes);
    this.logger.info(
      { dir: this.dir, generation: this.#generation, replayed },
      'embedded database loaded',
    );
  }

  #sync(): void {
    if (!this.#dirty || this.#failure) return;
    this.#dirty = false;
    try {
      fdatasyncSync(this.#fd);
    } catch (error) {
      this.logger.warn({ err: error }, 'embedded database journal sync failed');
    }
  }

  #compact(): void {
    const generation = this.#generation + 1;
    const snapshotBytes = this.#writeSnapshot(generation);
    const journalFd = openSync(join(this.dir, journalName(generation)), 'w');
    try {
      renameSync(join(this.dir, SNAPSHOT_TMP), join(this.dir, SNAPSHOT));
    } catch (error) {
      closeSync(journalFd);
      throw error;
    }
    const [oldFd, oldGeneration] = [this.#fd, this.#generation];
    this.#fd = journalFd;
    this.#generation = generation;
    this.#snapshotBytes = snapshotBytes;
    this.#journalBytes = 0;
    this.#dirty = false;
    this.#syncDir();
    closeSync(oldFd);
    unlinkSync(join(this.dir, journalName(oldGeneration)));
    this.logger.info(
      { dir: this.dir, generation, bytes: snapshotBytes },
      'embedded database compacted',
    );
  }

  /** Writes the whole state to the temporary snapshot file, synced; returns its size. */
  #writeSnapshot(generation: number): number {
    const fd = openSync(join(this.dir, SNAPSHOT_TMP), 'w');
    try {
      let pending: Buffer[] = [encodeRecord({ generation })];
      let total = 0;
      const flush = () => {
        const bytes = Buffer.concat(pending);
        writeSync(fd, bytes);
        total += bytes.length;
        pending = [];
      };
      for (const record of this.store.snapshot()) {
        if (pending.push(encodeRecord(record)) >= 1024) flush();
      }
      flush();
      fsyncSync(fd);
      return total;
    } finally {
      closeSync(fd);
    }
  }

  #syncDir(): void {
    const fd = openSync(this.dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
