import type { EmbedSources } from '../../domain/kidlisp/embed-closure.js';
import type { RuntimeReport } from '../../domain/kidlisp/runtime/index.js';
import type { TraceScope } from '../../telemetry/active-span.js';

/**
 * A `#code` painting a program stamps: its code (without `#`), the stored file's key (decoded
 * pixels are cached under it) and a way to read its PNG when they are not.
 */
export interface PaintingFile {
  code: string;
  key: string;
  read(): Promise<Buffer | null>;
}

/** A program with what it draws from elsewhere, loaded before it runs (drawing.ts). */
export interface Drawing {
  source: string;
  /** The paintings it and its embeds stamp that exist (paintings.ts); any other `#code` is named as missing. */
  paintings?: readonly PaintingFile[];
  /** Its `$code` embeds' sources, and theirs; absent, embeds are named as not available. */
  embeds?: EmbedSources;
}

/** Why a picture is drawn, as `kidlisp_renders_total` counts it. */
export type RenderPurpose = 'thumbnail' | 'share' | 'render_tool';

/** Which pictures of a KidLisp program to take. */
export interface FramesRequest extends Drawing {
  width: number;
  height: number;
  /** Frame numbers (0 first, 60 a second), ascending and distinct: one picture after each. */
  frames: readonly number[];
  /** Absent: the seed the program's thumbnail is drawn with, so the two agree. */
  seed?: number | undefined;
  /** Who asked (the request's client key): one client has at most 2 renders in flight. */
  client: string;
  /** In a traced request, the span its waits and render are spans below. */
  trace?: TraceScope | undefined;
}

export interface RenderedFrames {
  /** One PNG per requested frame, in the same order. */
  pngs: Buffer[];
  /** The seed they were drawn with. */
  seed: number;
  /** What the runtime could not draw or ran into while drawing them. */
  report: RuntimeReport;
}

/**
 * Draws a program's frames off the event loop within a time budget; fails with RENDER_TOO_SLOW
 * past it. The composition root hands in the thumbnail renderer (src/pages/thumbnails).
 */
export interface FrameRenderer {
  frames(request: FramesRequest): Promise<RenderedFrames>;
}

/** Thumbnails and render_kidlisp's frames: one renderer, so they take turns on the same cores. */
export interface KidlispPictures extends FrameRenderer {
  /** The picture; rejects TIMEOUT (over budget), BUSY (no turn in time) or the render's failure. */
  png(drawing: Drawing, purpose?: RenderPurpose, trace?: TraceScope): Promise<Picture>;
  /**
   * The picture if it is ready within `waitMs`, else null (also when it cannot be drawn). A render
   * still running goes on after that and is kept, so a later request finds it.
   */
  within(
    drawing: Drawing,
    waitMs: number,
    purpose?: RenderPurpose,
    trace?: TraceScope,
  ): Promise<Picture | null>;
}

/** A drawn thumbnail and the hash of what it draws (its ETag and storage key). */
export interface Picture {
  key: string;
  png: Buffer;
}
