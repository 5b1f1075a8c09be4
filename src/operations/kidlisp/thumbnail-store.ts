import { LRUCache } from 'lru-cache';
import { perProcess, type RequestContext, type Services } from '../../context.js';
import { rendererVersion } from '../../domain/kidlisp/render/renderer-version.js';
import { markWorksChanged } from '../items/works-version.js';
import { drawingOf } from './drawing.js';
import type { Picture, RenderPurpose } from './frame-renderer.js';

/** Works whose stored picture a service keeps in memory. */
const KNOWN_PICTURES = 500;

/**
 * Thumbnails kept in object storage, so a restart (or another instance) shows them without
 * drawing again: `thumbnails/<renderer version>/<drawing hash>.png`, and a record per work naming
 * the picture it has now. A change to the runtime changes the version (renderer-version.ts), and
 * every thumbnail is then drawn anew on its first request.
 */
const objectKey = (version: string, key: string) => `thumbnails/${version}/${key}.png`;

/** The stored thumbnail of work `code`, drawn by this renderer; null when there is none yet. */
export async function storedThumbnail(ctx: RequestContext, code: string): Promise<Picture | null> {
  const version = rendererVersion();
  const record = await ctx.services.db.thumbnails.findOne({ _id: code, version });
  if (!record) return null;
  const stored = await ctx.services.storage.get(objectKey(version, record.key));
  return stored ? { key: record.key, png: stored.body } : null;
}

/** The stored pictures' hashes of these works, for the listings' image URLs (work-card.ts). */
export async function thumbnailKeys(
  ctx: RequestContext,
  codes: readonly string[],
): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const records = await ctx.services.db.thumbnails
    .find({ _id: { $in: [...codes] }, version: rendererVersion() }, { projection: { key: 1 } })
    .toArray();
  return new Map(records.map((record) => [record._id, record.key]));
}

/**
 * Per service: whether it is closing, the thumbnails being stored now, and the works' pictures
 * already read from storage or stored by it (a work's stored picture never changes under one
 * renderer version), so a picture is read from the database and storage once per process.
 */
interface StoreState {
  closing: boolean;
  writes: Set<Promise<void>>;
  known: LRUCache<string, Picture>;
}
const storingOf = perProcess(
  (): StoreState => ({
    closing: false,
    writes: new Set(),
    known: new LRUCache({ max: KNOWN_PICTURES }),
  }),
);

/**
 * A closing service stores no more thumbnails, and waits for those being stored, so nothing is
 * written to its storage or database once it has closed (renders still running are dropped).
 */
export async function stopStoringThumbnails(services: Services): Promise<void> {
  const state = storingOf(services);
  state.closing = true;
  await Promise.allSettled([...state.writes]);
}

function keep(ctx: RequestContext, code: string, picture: Picture): Promise<void> {
  const state = storingOf(ctx.services);
  if (state.closing) return Promise.resolve();
  const write = store(ctx, code, picture)
    .then(() => {
      state.known.set(code, picture);
    })
    .finally(() => state.writes.delete(write));
  state.writes.add(write);
  return write;
}

async function store(ctx: RequestContext, code: string, picture: Picture): Promise<void> {
  const version = rendererVersion();
  await ctx.services.storage.put(objectKey(version, picture.key), picture.png, 'image/png');
  await ctx.services.db.thumbnails.updateOne(
    { _id: code },
    { $set: { version, key: picture.key, drawnAt: new Date() } },
    { upsert: true },
  );
  markWorksChanged(ctx.services);
}

/**
 * Work `code`'s thumbnail within `waitMs`: the stored one, or one drawn now (with its embeds and
 * paintings) and stored; null when it is not drawn in time (the render goes on and is stored).
 */
export async function thumbnailOf(
  ctx: RequestContext,
  code: string,
  source: string,
  waitMs: number,
  purpose: RenderPurpose,
): Promise<Picture | null> {
  const { known } = storingOf(ctx.services);
  const stored = known.get(code) ?? (await storedThumbnail(ctx, code));
  if (stored) {
    known.set(code, stored);
    return stored;
  }
  const drawing = await drawingOf(ctx, source);
  const drawn = ctx.services.pictures.png(drawing, purpose, ctx.services.trace);
  void drawn
    .then(
      (picture) => keep(ctx, code, picture),
      () => {},
    )
    .catch((error: unknown) =>
      ctx.services.logger.warn({ err: error, code }, 'thumbnail not stored'),
    );
  return ctx.services.pictures.within(drawing, waitMs, purpose, ctx.services.trace);
}

/** Draws and stores a newly published work's thumbnail in the background (publish-kidlisp.ts). */
export function queueThumbnail(ctx: RequestContext, code: string, source: string): void {
  void thumbnailOf(ctx, code, source, 0, 'thumbnail').catch((error: unknown) =>
    ctx.services.logger.warn({ err: error, code }, 'thumbnail not drawn at publish'),
  );
}
