/**
 * Worker thread: draws a KidLisp program's first frames with the runtime on @napi-rs/canvas and
 * answers the PNG. Started per render by thumbnails.ts, which terminates it when it overruns its
 * time budget, so nothing here can hold the service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import {
  canvasSurface,
  createKidlispRuntime,
  type RuntimeReport,
} from '../../domain/kidlisp/runtime/index.js';

export interface RenderRequest {
  source: string;
  size: number;
  /** Frames drawn before the picture is taken, at 60 frames a second from 0 ms. */
  frames: number;
  seed: number;
  /** Optional picture size; `size` both ways when absent. */
  width?: number;
  height?: number;
  /**
   * Optional: the frames (ascending) after which a picture is taken; the answer is then one PNG
   * per frame and the runtime's report. Absent: one picture after `frames` frames.
   */
  capture?: number[];
}

export type RenderAnswer =
  | { png: Uint8Array }
  | { pngs: Uint8Array[]; report: RuntimeReport }
  | { error: string };

interface Drawn {
  pngs: Uint8Array[];
  report: RuntimeReport;
}

function render(request: RenderRequest): Drawn {
  const { source, size, frames, seed, width = size, height = size } = request;
  const capture = new Set(request.capture ?? [frames - 1]);
  const last = Math.max(frames - 1, ...capture);
  const canvas = createCanvas(width, height);
  const runtime = createKidlispRuntime(source, {
    surface: canvasSurface(canvas.getContext('2d'), width, height),
    seed,
    createSurface: (w, h) => canvasSurface(createCanvas(w, h).getContext('2d'), w, h),
    // Embeds would need the database; a thumbnail draws without them (they stay empty).
    loadEmbed: async () => null,
  });
  const pngs: Uint8Array[] = [];
  for (let frame = 0; frame <= last; frame++) {
    runtime.frame({ frame, ms: (frame * 1000) / 60 });
    if (capture.has(frame)) pngs.push(new Uint8Array(canvas.toBuffer('image/png')));
  }
  return { pngs, report: runtime.report() };
}

/** A thumbnail request answers its one PNG as before; a capture request its PNGs and the report. */
function answerTo(request: RenderRequest): RenderAnswer {
  const drawn = render(request);
  if (request.capture) return drawn;
  return { png: drawn.pngs[0] ?? new Uint8Array() };
}

try {
  const answer = answerTo(workerData as RenderRequest);
  const buffers = 'png' in answer ? [answer.png] : 'pngs' in answer ? answer.pngs : [];
  parentPort?.postMessage(
    answer,
    buffers.map((png) => png.buffer as ArrayBuffer),
  );
} catch (error) {
  parentPort?.postMessage({
    error: String((error as Error)?.message ?? error),
  } satisfies RenderAnswer);
}
