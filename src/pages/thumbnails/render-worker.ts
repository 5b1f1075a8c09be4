/**
 * Worker thread: draws a KidLisp program's first frames with the runtime's own rasterizer
 * (`renderFrames`, the same bytes as the player) and answers the PNG of the last one. Started per render by thumbnails.ts, which terminates it when it overruns its
 * time budget, so nothing here can hold the service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { frameStream } from '../../domain/kidlisp/render/frames.js';
import { encodePng } from '../../domain/kidlisp/render/png.js';

export interface RenderRequest {
  source: string;
  size: number;
  /** Frames drawn before the picture is taken, at 60 frames a second from 0 ms. */
  frames: number;
  seed: number;
}

export type RenderAnswer = { png: Uint8Array } | { error: string };

function render({ source, size, frames, seed }: RenderRequest): Uint8Array {
  // Embeds would need the database; a thumbnail draws without them (they stay empty).
  let last: Uint8ClampedArray = new Uint8ClampedArray(size * size * 4);
  for (const frame of frameStream({ source, width: size, height: size, frames, seed })) {
    last = frame.rgba;
  }
  return new Uint8Array(encodePng(last, size, size));
}

try {
  const png = render(workerData as RenderRequest);
  parentPort?.postMessage({ png } satisfies RenderAnswer, [png.buffer as ArrayBuffer]);
} catch (error) {
  parentPort?.postMessage({
    error: String((error as Error)?.message ?? error),
  } satisfies RenderAnswer);
}
