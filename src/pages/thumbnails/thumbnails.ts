import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { AppError, isAppError } from '../../app-error.js';
import type {
  Drawing,
  FramesRequest,
  KidlispPictures,
  Picture,
  RenderedFrames,
  RenderPurpose,
} from '../../operations/kidlisp/frame-renderer.js';
import type { TraceScope } from '../../telemetry/active-span.js';
import { createPaintingDecoder, type PaintingDecoder } from './painting-decoder.js';
import { createRenderQueue, type RenderQueue } from './render-queue.js';
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
  /** Tool renders (render_kidlisp) one client may have in flight; a further one waits, then 429. */
  perClient: number;
  /** How long a client's render past `perClient` waits for one of them to end. */
  clientWaitMs: number;
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
  perClient: 2,
  clientWaitMs: 5_000,
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

/**
 * The hash a thumbnail is cached under: the program's text (an item's code always names the same
 * text), its embeds' texts and the stored files of the paintings it stamps.
 */
export const thumbnailKey = ({ source, paintings = [], embeds = {} }: Drawing) => {
  const hash = createHash('sha256').update(source);
  for (const { code, key } of paintings) hash.update(`\n#${code}=${key}`);
  for (const code of Object.keys(embeds).sort())
    hash.update(`\n$${code}=${JSON.stringify(embeds[code])}`);
  return hash.digest('base64url');
};

/** A stable seed per program, so a thumbnail does not change between renders. */
const seedOf = (key: string) => Buffer.from(key, 'base64url').readUInt32BE(0) || 1;

/** Runs one request in its own worker; past `budgetMs` the worker is terminated and `tooSlow` thrown. */
function runInWorker(
  request: RenderRequest,
  budgetMs: number,
  tooSlow: () => AppError,
): Promise<Exclude<RenderAnswer, { error: string }>> {
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
    const timer = setTimeout(() => settle(() => reject(tooSlow())), budgetMs);
    worker.once('message', (answer: RenderAnswer) =>
      settle(() =>
        'error' in answer
          ? reject(new Error(`thumbnail render failed: ${answer.error}`))
          : resolve(answer),
      ),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`thumbnail worker exited (${code}) without a picture`))),
    );
  });
}

async function renderInWorker(request: RenderRequest, budgetMs: number): Promise<Buffer> {
  const answer = await runInWorker(
    request,
    budgetMs,
    () => new AppError('TIMEOUT', `The thumbnail took longer than ${budgetMs} ms to draw.`),
  );
  if (!('png' in answer)) throw new Error('thumbnail worker answered without its picture');
  return Buffer.from(answer.png);
}

/** Pictures of chosen frames at a chosen size, for render_kidlisp; never cached. */
async function renderFrames(
  request: FramesRequest,
  budgetMs: number,
  decode: PaintingDecoder,
): Promise<RenderedFrames> {
  const { source, width, height, frames } = request;
  const seed = request.seed ?? seedOf(thumbnailKey({ source }));
  const last = frames[frames.length - 1] ?? 0;
  const paintings = await decode(request.paintings ?? []);
  const answer = await runInWorker(
    {
      source,
      seed,
      size: width,
      width,
      height,
      frames: last + 1,
      capture: [...frames],
      paintings,
      ...(request.embeds === undefined ? {} : { embeds: request.embeds }),
    },
    budgetMs,
    () =>
      new AppError(
        'RENDER_TOO_SLOW',
        `The program did not draw frame${frames.length > 1 ? 's' : ''} ${frames.join(', ')} within the time budget of ${budgetMs} ms; draw fewer or earlier frames, or make each frame lighter.`,
        { budgetMs },
      ),
  );
  if (!('pngs' in answer)) throw new Error('render worker answered without its pictures');
  return { pngs: answer.pngs.map((png) => Buffer.from(png)), seed, report: answer.report };
}

/** Counts the renders this module runs, by purpose (kidlisp_renders_total). */
export type RenderCounter = (purpose: RenderPurpose) => void;

/**
 * Thumbnails of KidLisp programs, drawn off the event loop and cached per program hash, and
 * render_kidlisp's frames (never cached); both take turns in one fair queue (render-queue.ts).
 */
export function createThumbnails(
  options: Partial<ThumbnailOptions> = {},
  countRender: RenderCounter = () => {},
): KidlispPictures {
  const settings = { ...THUMBNAIL_DEFAULTS, ...options };
  const queue: RenderQueue = createRenderQueue(settings);
  // Promises are cached, so concurrent requests for one program share one render. A program that
  // could not be drawn is remembered for failureTtlMs; one that found no turn is forgotten at once.
  const cache = new LRUCache<string, Promise<Buffer>>({ max: settings.maxEntries });
  const decode = createPaintingDecoder();
  const png = async (
    drawing: Drawing,
    purpose: RenderPurpose = 'thumbnail',
    trace?: TraceScope,
  ): Promise<Picture> => {
    const key = thumbnailKey(drawing);
    let pending = cache.get(key);
    if (!pending) {
      // The seed comes from the text alone, so a thumbnail and render_kidlisp's frames agree.
      const { source, embeds } = drawing;
      const seed = seedOf(thumbnailKey({ source }));
      const request = { source, size: settings.size, frames: settings.frames, seed };
      pending = queue.run(
        { kind: purpose === 'thumbnail' ? 'background' : 'requested', trace },
        async () => {
          const paintings = await decode(drawing.paintings ?? []);
          countRender(purpose);
          return renderInWorker(
            { ...request, paintings, ...(embeds === undefined ? {} : { embeds }) },
            settings.budgetMs,
          );
        },
      );
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
    within(drawing, waitMs, purpose, trace) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), waitMs);
      });
      return Promise.race([png(drawing, purpose, trace).catch(() => null), late]).finally(() =>
        clearTimeout(timer),
      );
    },
    frames: ({ trace, ...request }) =>
      queue.run({ kind: 'tool', client: request.client, trace }, () => {
        countRender('render_tool');
        return renderFrames(request, settings.budgetMs, decode);
      }),
  };
}
