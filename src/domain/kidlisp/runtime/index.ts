/**
 * The KidLisp runtime: draws a program frame by frame on a `Surface`. Pure TypeScript (no DOM or
 * Node imports), so the browser player and server-side thumbnails share it. See
 * docs/kidlisp-runtime.md for the forms it draws and the choices it makes.
 */
import { Interpreter } from './interpreter.js';
import { BUILTINS } from './library.js';
import type {
  FrameResult,
  KeyInput,
  PointerInput,
  RuntimeOptions,
  RuntimeReport,
  Tick,
} from './types.js';

export type { RasterSurface } from '../raster/raster-surface.js';
export { rasterSurface } from '../raster/raster-surface.js';
export { fadeColorAt, fadeLine } from './paint.js';
export type { SoundNote, SoundOutput } from './sound.js';
export type {
  Area,
  EmbedLoader,
  FrameResult,
  KeyInput,
  Paint,
  PaintingLoader,
  PixelBlock,
  PointerInput,
  RGBA,
  RuntimeOptions,
  RuntimeReport,
  Surface,
  Tick,
} from './types.js';
export { type WordEntry, type WordState, wordStates } from './word-states.js';

export interface KidlispRuntime {
  /** Hands a pointer event to the program; its handlers run before the next frame's step. */
  pointer(event: PointerInput): void;
  /** Hands a key to the program (Enter/Space press the pen, arrows move it; input.ts). */
  key(event: KeyInput): void;
  /** Draws one frame at `tick`. Never throws. */
  frame(tick: Tick): FrameResult;
  /** Unsupported forms, unknown words and problems seen so far. */
  report(): RuntimeReport;
  /** The frame rate the program asked for with `(fps n)` (60 unless it did). */
  readonly fps: number;
  /** Resolves when every `$code` embed and `#code` painting requested so far has loaded or failed. */
  idle(): Promise<void>;
}

export function createKidlispRuntime(source: string, options: RuntimeOptions): KidlispRuntime {
  const interpreter = new Interpreter(source, options, BUILTINS);
  return {
    frame: (tick) => interpreter.frame(tick),
    pointer: (event) => interpreter.pointer.push(interpreter.view.inProgramPixels(event)),
    key: (event) => interpreter.pointer.push(event),
    report: () => interpreter.getReport(),
    get fps() {
      return interpreter.fps;
    },
    idle: () => interpreter.idle(),
  };
}

/** Human-readable lines for a notice next to the canvas; empty when there is nothing to say. */
export function describeReport(report: RuntimeReport): string[] {
  const lines: string[] = [];
  if (report.unsupported.length > 0) {
    lines.push(`Not drawn yet by this viewer: ${report.unsupported.join(', ')}`);
  }
  if (report.unknown.length > 0) lines.push(`Unknown words: ${report.unknown.join(', ')}`);
  lines.push(...report.problems);
  return lines;
}
