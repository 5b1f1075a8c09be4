/**
 * Worker thread: draws a KidLisp program's first frames with the runtime's own rasterizer
 * (`renderFrames`, the same bytes as the player) and answers the PNG of the last one. Started per render by thumbnails.ts, which terminates it when it overruns its
 * time budget, so nothing here can hold the service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedSources } from '../../domain/kidlisp/embed-closure.js';
import { frameStream } from '../../domain/kidlisp/render/frames.js';
import { encodePng } from '../../domain/kidlisp/render/png.js';
import type { PixelBlock, RuntimeReport } from '../../domain/kidlisp/runtime/index.js';

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
  /** `#code` paintings by code, decoded before the worker starts (painting-decoder.ts). */
  paintings?: Record<string, PixelBlock>;
  /** `$code` embeds' sources, read before the worker starts (src/operations/kidlisp/drawing.ts). */
  embeds?: EmbedSources;
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
  const { source, size, frames, seed, width = size, height = size, paintings, embeds } = request;
  const capture = new Set(request.capture ?? [frames - 1]);
  const last = Math.max(frames - 1, ...capture);
  const pngs: Uint8Array[] = [];
  const stream = frameStream({
    source,
    width,
    height,
    frames: last + 1,
    seed,
    ...(paintings === undefined ? {} : { paintings }),
    ...(embeds === undefined ? {} : { embeds }),
  });
  for (let next = stream.next(); ; next = stream.next()) {
    if (next.done === true) return { pngs, report: next.value };
    const { frame, rgba } = next.value;
    if (capture.has(frame)) pngs.push(new Uint8Array(encodePng(rgba, width, height)));
  }
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
