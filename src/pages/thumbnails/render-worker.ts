/**
 * Worker thread: draws a KidLisp program's first frames with the runtime on @napi-rs/canvas and
 * answers the PNG. Started per render by thumbnails.ts, which terminates it when it overruns its
 * time budget, so nothing here can hold the service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { canvasSurface, createKidlispRuntime } from '../../domain/kidlisp/runtime/index.js';

export interface RenderRequest {
  source: string;
  size: number;
  /** Frames drawn before the picture is taken, at 60 frames a second from 0 ms. */
  frames: number;
  seed: number;
}

export type RenderAnswer = { png: Uint8Array } | { error: string };

function render({ source, size, frames, seed }: RenderRequest): Uint8Array {
  const canvas = createCanvas(size, size);
  const runtime = createKidlispRuntime(source, {
    surface: canvasSurface(canvas.getContext('2d'), size, size),
    seed,
    createSurface: (width, height) =>
      canvasSurface(createCanvas(width, height).getContext('2d'), width, height),
    // Embeds would need the database; a thumbnail draws without them (they stay empty).
    loadEmbed: async () => null,
  });
  for (let frame = 0; frame < frames; frame++) runtime.frame({ frame, ms: (frame * 1000) / 60 });
  return new Uint8Array(canvas.toBuffer('image/png'));
}

try {
  const png = render(workerData as RenderRequest);
  parentPort?.postMessage({ png } satisfies RenderAnswer, [png.buffer as ArrayBuffer]);
} catch (error) {
  parentPort?.postMessage({
    error: String((error as Error)?.message ?? error),
  } satisfies RenderAnswer);
}
