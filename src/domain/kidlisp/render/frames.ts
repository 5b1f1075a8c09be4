/**
 * Renders frames of a KidLisp program to RGBA buffers with the runtime's own rasterizer: no DOM,
 * no Node. The CLI (`publish-gateway kidlisp render`), the thumbnail worker and the tests use it,
 * and the browser player draws the same bytes (test/e2e/kidlisp-pixels.test.ts).
 */
import { type EmbedSources, embedsFrom } from '../embed-closure.js';
import { presentLayer } from '../raster/present.js';
import { rasterSurface } from '../raster/raster-surface.js';
import { createKidlispRuntime } from '../runtime/index.js';
import type { KeyInput, PixelBlock, PointerInput, RuntimeReport } from '../runtime/types.js';

/** A pointer or key event and the frame it arrives before, as in the reference's pixel fixtures. */
export type ReplayEvent = (PointerInput | KeyInput) & { frame: number };

export interface RenderSpec {
  source: string;
  width: number;
  height: number;
  /** How many frames to draw, from frame 0. */
  frames: number;
  seed?: number;
  /** Milliseconds between frames; 1000/60 when absent. */
  stepMs?: number;
  /** The clock's time at frame 0, in ms since 1970; 0 when absent. */
  epochMs?: number;
  events?: readonly ReplayEvent[];
  /**
   * `#code` paintings by code (without the `#`), loaded before the first frame; a code not here
   * is named in the report as a painting that does not exist.
   */
  paintings?: Readonly<Record<string, PixelBlock>>;
  /**
   * `$code` embeds' sources, resolved before the first frame (embed-closure.ts); absent, embeds
   * are named in the report as not available here.
   */
  embeds?: EmbedSources;
}

export interface RenderedFrame {
  frame: number;
  /** The clock at this frame: epochMs + frame * stepMs. */
  timeMs: number;
  /** width x height x 4 bytes, a copy taken after the frame was drawn. */
  rgba: Uint8ClampedArray;
}

export interface Rendering {
  frames: RenderedFrame[];
  report: RuntimeReport;
}

/** Draws `spec.frames` frames and keeps them all (tests, small renders). */
export function renderFrames(spec: RenderSpec): Rendering {
  const frames: RenderedFrame[] = [];
  const run = frameStream(spec);
  for (let next = run.next(); ; next = run.next()) {
    if (next.done === true) return { frames, report: next.value };
    frames.push(next.value);
  }
}

/**
 * Draws `spec.frames` frames one at a time, yielding each as it is drawn (one RGBA buffer alive
 * at a time: the CLI writes long renders this way); returns the runtime's report at the end.
 */
export function* frameStream(spec: RenderSpec): Generator<RenderedFrame, RuntimeReport> {
  const { width, height, source } = spec;
  const stepMs = spec.stepMs ?? 1000 / 60;
  const epochMs = spec.epochMs ?? 0;
  const surface = rasterSurface(width, height);
  const runtime = createKidlispRuntime(source, {
    surface,
    seed: spec.seed ?? 0,
    epochMs,
    createSurface: (w, h) => rasterSurface(w, h),
    ...(spec.embeds === undefined ? {} : { loadEmbed: embedsFrom(spec.embeds) }),
    loadPainting: (code) =>
      spec.paintings !== undefined && Object.hasOwn(spec.paintings, code)
        ? (spec.paintings[code] ?? null)
        : null,
  });
  const events = spec.events ?? [];
  for (let frame = 0; frame < spec.frames; frame++) {
    for (const event of events) {
      if (event.frame !== frame) continue;
      if ('key' in event) runtime.key(event);
      else runtime.pointer(event);
    }
    runtime.frame({ frame, ms: frame * stepMs });
    const rgba = new Uint8ClampedArray(surface.pixels.length);
    presentLayer(surface.pixels, rgba);
    yield { frame, timeMs: epochMs + frame * stepMs, rgba };
  }
  return runtime.report();
}
