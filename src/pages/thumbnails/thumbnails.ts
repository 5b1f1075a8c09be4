import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { AppError, isAppError } from '../../app-error.js';
import { createSearchSlots } from '../../operations/chat/search-slots.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';

export interface ThumbnailOptions {
  size: number;
  /** Frames drawn before the picture is taken. */
  frames: number;
  /** Wall-clock time a render may take, the worker's start included; then it is terminated. */
  budgetMs: number;
  /** Thumbnails kept in memory. */
  maxEntries: number;
  /** Renders at once; the others wait their turn, so a grid of heavy programs does not starve each other. */
  concurrency: number;
  /** How long a render may wait for its turn; then it is dropped (BUSY) and drawn on a later request. */
  queueWaitMs: number;
  /** How long a program that could not be drawn (over budget, or failing) is not tried again. */
  failureTtlMs: number;
}

export const THUMBNAIL_DEFAULTS: ThumbnailOptions = {
  size: 256,
  frames: 30,
  budgetMs: 5_000,
  maxEntries: 500,
  // One core stays with the event loop (and the database, when it is embedded).
  concurrency: Math.max(1, availableParallelism() - 1),
  queueWaitMs: 120_000,
  failureTtlMs: 60_000,
};

// Built, this module is .js beside render-worker.js. Run from src/ (tsx, tests) both are .ts, and
// the worker loads its file through tsx (a development dependency, never needed when built).
const ownExt = extname(fileURLToPath(import.meta.url));
const WORKER_URL = new URL(`./render-worker${ownExt}`, import.meta.url);

function startWorker(workerData: RenderRequest): Worker {
  if (ownExt !== '.ts') return new Worker(WORKER_URL, { workerData, resourceLimits });
  const load = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true, workerData, resourceLimits });
}

const resourceLimits = { maxOldGenerationSizeMb: 256 };

/** The hash a thumbnail is cached under: the program's text (an item's code always names the same text). */
export const thumbnailKey = (source: string) =>
  createHash('sha256').update(source).digest('base64url');

/** A stable seed per program, so a thumbnail does not change between renders. */
const seedOf = (key: string) => Buffer.from(key, 'base64url').readUInt32BE(0) || 1;

function renderInWorker(request: RenderRequest, budgetMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(request);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new AppError('TIMEOUT', `The thumbnail took longer than ${budgetMs} ms to draw.`)),
        ),
      budgetMs,
    );
    worker.once('message', (answer: RenderAnswer) =>
      settle(() =>
        'png' in answer
          ? resolve(Buffer.from(answer.png))
          : reject(new Error(`thumbnail render failed: ${answer.error}`)),
      ),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`thumbnail worker exited (${code}) without a picture`))),
    );
  });
}

/** Thumbnails of KidLisp programs, drawn off the event loop and cached per program hash. */
export interface Thumbnails {
  /** The picture; rejects TIMEOUT (over budget), BUSY (no turn in time) or the render's failure. */
  png(source: string): Promise<{ key: string; png: Buffer }>;
  /**
   * The picture if it is ready within `waitMs`, else null (also when it cannot be drawn). A render
   * still running goes on after that and is kept, so a later request finds it.
   */
  within(source: string, waitMs: number): Promise<{ key: string; png: Buffer } | null>;
}

export function createThumbnails(options: Partial<ThumbnailOptions> = {}): Thumbnails {
  const settings = { ...THUMBNAIL_DEFAULTS, ...options };
  const turns = createSearchSlots(
    settings.concurrency,
    settings.queueWaitMs,
    'Too many thumbnails are waiting to be drawn; please retry shortly.',
  );
  // Promises are cached, so concurrent requests for one program share one render. A program that
  // could not be drawn is remembered for failureTtlMs; one that found no turn is forgotten at once.
  const cache = new LRUCache<string, Promise<Buffer>>({ max: settings.maxEntries });
  const png = async (source: string) => {
    const key = thumbnailKey(source);
    let pending = cache.get(key);
    if (!pending) {
      const request = { source, size: settings.size, frames: settings.frames, seed: seedOf(key) };
      pending = turns.run(() => renderInWorker(request, settings.budgetMs));
      cache.set(key, pending);
      const started = pending;
      started.catch((error: unknown) => {
        if (cache.get(key) !== started) return;
        if (isAppError(error) && error.code === 'BUSY') cache.delete(key);
        else cache.set(key, started, { ttl: settings.failureTtlMs });
      });
    }
    return { key, png: await pending };
  };
  return {
    png,
    within(source, waitMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), waitMs);
      });
      return Promise.race([png(source).catch(() => null), late]).finally(() => clearTimeout(timer));
    },
  };
}
