/**
 * Renders frames of a KidLisp program to RGBA buffers with the runtime's own rasterizer: no DOM,
 * no Node. The CLI (`publish-gateway kidlisp render`), the thumbnail worker and the tests use it,
 * and the browser player draws the same bytes (test/e2e/kidlisp-pixels.test.ts).
 */
import { presentLayer } from '../raster/present.js';
import { rasterSurface } from '../raster/raster-surface.js';
import { createKidlispRuntime } from '../runtime/index.js';
import type { RuntimeReport } from '../runtime/types.js';

/** A pointer event delivered before the frame's step, as the reference's pixel gate does. */
export interface PointerEvent {
  frame: number;
  type: 'touch' | 'draw' | 'lift';
  x: number;
  y: number;
  dx?: number;
  dy?: number;
}

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
  events?: readonly PointerEvent[];
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

/** Draws `spec.frames` frames and calls `onFrame` after each (the default keeps them all). */
export function renderFrames(spec: RenderSpec): Rendering {
  const { width, height, source } = spec;
  const stepMs = spec.stepMs ?? 1000 / 60;
  const epochMs = spec.epochMs ?? 0;
  const surface = rasterSurface(width, height);
  const runtime = createKidlispRuntime(source, {
    surface,
    seed: spec.seed ?? 0,
    epochMs,
    createSurface: (w, h) => rasterSurface(w, h),
    loadEmbed: async () => null,
  });
  const frames: RenderedFrame[] = [];
  const events = spec.events ?? [];
  for (let frame = 0; frame < spec.frames; frame++) {
    for (const event of events) if (event.frame === frame) runtime.pointer(event);
    runtime.frame({ frame, ms: frame * stepMs });
    const rgba = new Uint8ClampedArray(surface.pixels.length);
    presentLayer(surface.pixels, rgba);
    frames.push({ frame, timeMs: epochMs + frame * stepMs, rgba });
  }
  return { frames, report: runtime.report() };
}
