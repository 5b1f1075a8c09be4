import type { RuntimeReport } from '../../domain/kidlisp/runtime/index.js';

/** Which pictures of a KidLisp program to take. */
export interface FramesRequest {
  source: string;
  width: number;
  height: number;
  /** Frame numbers (0 first, 60 a second), ascending and distinct: one picture after each. */
  frames: readonly number[];
  /** Absent: the seed the program's thumbnail is drawn with, so the two agree. */
  seed?: number | undefined;
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
  png(source: string): Promise<{ key: string; png: Buffer }>;
  /**
   * The picture if it is ready within `waitMs`, else null (also when it cannot be drawn). A render
   * still running goes on after that and is kept, so a later request finds it.
   */
  within(source: string, waitMs: number): Promise<{ key: string; png: Buffer } | null>;
}
