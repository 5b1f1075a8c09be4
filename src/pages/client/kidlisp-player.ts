/**
 * Browser entry: plays KidLisp programs on `<canvas data-kidlisp>` elements. Bundled by
 * `npm run build:client` into dist/public/kidlisp-player.js and loaded as a file, so it runs under
 * a strict CSP (no inline script, no eval). The page convention is in docs/kidlisp-runtime.md:
 *
 *   <canvas data-kidlisp="kidlisp-source" width="256" height="256"></canvas>
 *   <script type="application/json" id="kidlisp-source">{"source":"(wipe navy)"}</script>
 *   <p data-kidlisp-notice="kidlisp-source" hidden></p>
 */
import {
  type EmbedSources,
  embedCodesOf,
  embedsFrom,
  resolveEmbeds,
} from '../../domain/kidlisp/embed-closure.js';
import { presentLayer } from '../../domain/kidlisp/raster/present.js';
import {
  createKidlispRuntime,
  describeReport,
  type KidlispRuntime,
  rasterSurface,
} from '../../domain/kidlisp/runtime/index.js';
import { playerAudio } from './kidlisp-audio.js';
import { listenForKeys } from './kidlisp-keys.js';
import { showNotice } from './notice.js';
import { paintingLoader } from './painting-loader.js';

const DEFAULT_SOURCE_ID = 'kidlisp-source';
const DEFAULT_EMBED_ENDPOINT = '/api/store-kidlisp';

interface Program {
  source: string;
}

/** Reads the JSON data holder: `{"source": "..."}` (a bare JSON string is accepted too). */
function readProgram(holder: Element | null): Program | undefined {
  if (holder === null) return undefined;
  try {
    const data: unknown = JSON.parse(holder.textContent ?? '');
    if (typeof data === 'string') return { source: data };
    if (typeof data === 'object' && data !== null && 'source' in data) {
      const { source } = data as { source: unknown };
      if (typeof source === 'string') return { source };
    }
  } catch {
    // Reported by the caller as an unreadable program.
  }
  return undefined;
}

function noticeFor(id: string): HTMLElement | null {
  const exact = document.querySelector<HTMLElement>(`[data-kidlisp-notice="${CSS.escape(id)}"]`);
  return exact ?? document.querySelector<HTMLElement>('[data-kidlisp-notice]');
}

/**
 * Fetches an embedded program's source: `GET <endpoint>?code=<code>` answering JSON
 * `{"source": "..."}` or plain text; anything else (404 included) means "no such program".
 */
function embedLoader(endpoint: string): (code: string) => Promise<string | null> {
  return async (code) => {
    const url = `${endpoint}?code=${encodeURIComponent(code)}`;
    const response = await fetch(url, {
      headers: { accept: 'application/json, text/plain' },
      credentials: 'same-origin',
    });
    if (!response.ok) return null;
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('json')) {
      const body: unknown = await response.json();
      const source = (body as { source?: unknown } | null)?.source;
      return typeof source === 'string' ? source : null;
    }
    return type.startsWith('text/plain') ? response.text() : null;
  };
}

function seedFor(canvas: HTMLCanvasElement): number {
  const written = canvas.dataset.kidlispSeed;
  const given = Number(written);
  if (written !== undefined && written !== '' && Number.isInteger(given)) return given;
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  return random[0] ?? 1;
}

/** `data-kidlisp-step-ms` and `data-kidlisp-frames`: a fixed clock and a frame count, or none. */
function fixedTiming(canvas: HTMLCanvasElement): { stepMs?: number; frames?: number } {
  const stepMs = Number(canvas.dataset.kidlispStepMs);
  const frames = Number(canvas.dataset.kidlispFrames);
  return {
    ...(stepMs > 0 && Number.isFinite(stepMs) ? { stepMs } : {}),
    ...(Number.isInteger(frames) && frames > 0 ? { frames } : {}),
  };
}

/** Pointer events on the canvas, in the program's pixels, reach `tap`, `draw`, `lift`, `penx`. */
function listenForPointer(canvas: HTMLCanvasElement, runtime: KidlispRuntime): () => void {
  let down = false;
  const at = (event: PointerEvent) => {
    const box = canvas.getBoundingClientRect();
    return {
      x: Math.floor(((event.clientX - box.left) / Math.max(1, box.width)) * canvas.width),
      y: Math.floor(((event.clientY - box.top) / Math.max(1, box.height)) * canvas.height),
    };
  };
  const press = (event: PointerEvent) => {
    down = true;
    canvas.setPointerCapture?.(event.pointerId);
    runtime.pointer({ type: 'touch', ...at(event) });
  };
  const move = (event: PointerEvent) => {
    if (down) runtime.pointer({ type: 'draw', ...at(event) });
  };
  const release = (event: PointerEvent) => {
    if (!down) return;
    down = false;
    runtime.pointer({ type: 'lift', ...at(event) });
  };
  canvas.addEventListener('pointerdown', press);
  canvas.addEventListener('pointermove', move);
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  return () => {
    canvas.removeEventListener('pointerdown', press);
    canvas.removeEventListener('pointermove', move);
    canvas.removeEventListener('pointerup', release);
    canvas.removeEventListener('pointercancel', release);
  };
}

/**
 * Starts one canvas; returns a function that stops it. The runtime draws into its own RGBA
 * buffer; each frame is put on the canvas as it is, scaled up with crisp pixels by CSS.
 */
export function playKidlisp(canvas: HTMLCanvasElement): () => void {
  const id = canvas.dataset.kidlisp || DEFAULT_SOURCE_ID;
  const notice = noticeFor(id);
  const program = readProgram(document.getElementById(id));
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (program === undefined || context === null) {
    showNotice(notice, [
      program === undefined
        ? `No KidLisp program found in #${id} (expected JSON {"source": "..."})`
        : 'This browser gives no 2D canvas, so the program cannot be drawn',
    ]);
    return () => {};
  }
  const timing = fixedTiming(canvas);
  // Embeds load before the first frame, as every server-side render loads them (embed-closure.ts).
  let embeds: EmbedSources = {};
  const surface = rasterSurface(canvas.width, canvas.height);
  const audio = playerAudio(canvas);
  const runtime = createKidlispRuntime(program.source, {
    surface,
    seed: seedFor(canvas),
    epochMs: timing.stepMs === undefined ? Date.now() : 0,
    loadEmbed: (code) => embedsFrom(embeds)(code),
    loadPainting: paintingLoader(canvas.dataset.kidlispPaintings ?? ''),
    createSurface: rasterSurface,
    sound: audio.output,
  });
  const image = context.createImageData(canvas.width, canvas.height);
  canvas.style.imageRendering = 'pixelated';
  const stopListening = listenForPointer(canvas, runtime);
  const stopKeys = listenForKeys(canvas, runtime);

  let frame = 0;
  let start: number | undefined;
  let last = -Infinity;
  let handle = 0;
  let stopped = false;
  const step = (now: number) => {
    if (stopped) return;
    handle = requestAnimationFrame(step);
    start ??= now;
    // Honour (fps n): skip animation frames that come sooner than 1/n s after the last drawn one.
    if (now - last < 1000 / runtime.fps - 1) return;
    last = now;
    const ms = timing.stepMs === undefined ? now - start : frame * timing.stepMs;
    const result = runtime.frame({ frame, ms });
    presentLayer(surface.pixels, image.data);
    context.putImageData(image, 0, 0);
    frame++;
    canvas.dataset.kidlispDrawn = String(frame);
    if (result.reportChanged || frame === 1) showNotice(notice, describeReport(runtime.report()));
    if (timing.frames !== undefined && frame >= timing.frames) stop();
  };
  const stop = () => {
    stopped = true;
    cancelAnimationFrame(handle);
    stopListening();
    stopKeys();
    audio.stop();
  };
  if (embedCodesOf(program.source).length === 0) handle = requestAnimationFrame(step);
  else {
    const fetchEmbed = embedLoader(canvas.dataset.kidlispEmbeds || DEFAULT_EMBED_ENDPOINT);
    void resolveEmbeds(program.source, fetchEmbed).then((found) => {
      embeds = found;
      if (!stopped) handle = requestAnimationFrame(step);
    });
  }
  return stop;
}

/** Plays every `<canvas data-kidlisp>` in the document. */
export function playAllKidlisp(root: ParentNode = document): void {
  for (const canvas of root.querySelectorAll<HTMLCanvasElement>('canvas[data-kidlisp]')) {
    playKidlisp(canvas);
  }
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => playAllKidlisp(), { once: true });
} else {
  playAllKidlisp();
}
