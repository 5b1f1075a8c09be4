/**
 * Runs in the benchmark's browser page (bench/kidlisp-browser.ts): times the KidLisp runtime
 * drawing into its own pixels and putting them on a real <canvas> (what the player does) inside
 * requestAnimationFrame callbacks, beside the same loop with an
 * empty callback. Exposes `window.kidlispBench`.
 */
import { presentLayer } from '../../src/domain/kidlisp/raster/present.js';
import { createKidlispRuntime, rasterSurface } from '../../src/domain/kidlisp/runtime/index.js';
import { benchPaintings } from '../kidlisp-paintings.js';

export interface BrowserFigures {
  /** Time inside the callback, per frame. */
  mean: number;
  p50: number;
  p95: number;
  max: number;
  /** Mean time between callbacks (the display's frame period when nothing is late). */
  interval: number;
  notes: string[];
}

function figures(times: number[], intervals: number[], notes: string[]): BrowserFigures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    mean: times.reduce((sum, t) => sum + t, 0) / times.length,
    p50: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? 0,
    interval: intervals.reduce((sum, t) => sum + t, 0) / Math.max(1, intervals.length),
    notes,
  };
}

/** `frames` animation frames after `warmUp`, each timing `draw`. */
function animate(
  warmUp: number,
  frames: number,
  draw: (frame: number, ms: number) => void,
): Promise<{ times: number[]; intervals: number[] }> {
  return new Promise((resolve) => {
    const times: number[] = [];
    const intervals: number[] = [];
    let frame = 0;
    let start: number | undefined;
    let last: number | undefined;
    const step = (now: number) => {
      start ??= now;
      if (frame >= warmUp && last !== undefined) intervals.push(now - last);
      last = now;
      const began = performance.now();
      draw(frame, now - start);
      if (frame >= warmUp) times.push(performance.now() - began);
      frame++;
      if (frame < warmUp + frames) requestAnimationFrame(step);
      else resolve({ times, intervals });
    };
    requestAnimationFrame(step);
  });
}

function canvasOf(size: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  document.body.replaceChildren(canvas);
  return canvas;
}

async function run(
  source: string | null,
  options: { size: number; warmUp: number; frames: number; embeds: Record<string, string> },
): Promise<BrowserFigures> {
  const canvas = canvasOf(options.size);
  if (source === null) {
    const { times, intervals } = await animate(options.warmUp, options.frames, () => {});
    return figures(times, intervals, []);
  }
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2D canvas');
  const surface = rasterSurface(options.size, options.size);
  const image = context.createImageData(options.size, options.size);
  const runtime = createKidlispRuntime(source, {
    surface,
    seed: 1,
    loadEmbed: async (code) => options.embeds[code] ?? null,
    loadPainting: (code) => benchPaintings[code] ?? null,
    createSurface: rasterSurface,
  });
  runtime.frame({ frame: 0, ms: 0 });
  await runtime.idle();
  const { times, intervals } = await animate(options.warmUp, options.frames, (frame, ms) => {
    runtime.frame({ frame: frame + 1, ms });
    presentLayer(surface.pixels, image.data);
    context.putImageData(image, 0, 0);
  });
  const report = runtime.report();
  return figures(times, intervals, [...report.unsupported, ...report.unknown, ...report.problems]);
}

declare global {
  interface Window {
    kidlispBench: { run: typeof run };
  }
}

window.kidlispBench = { run };
