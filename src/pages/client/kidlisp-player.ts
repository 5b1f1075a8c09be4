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
  canvasSurface,
  createKidlispRuntime,
  describeReport,
  type EmbedLoader,
  type Surface,
} from '../../domain/kidlisp/runtime/index.js';
import { showNotice } from './notice.js';

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
function embedLoader(endpoint: string): EmbedLoader {
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

function offscreenSurface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const context = new OffscreenCanvas(width, height).getContext('2d', {
      willReadFrequently: true,
    });
    if (context !== null) return canvasSurface(context, width, height);
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) throw new Error('no 2D canvas for an embed');
  return canvasSurface(context, width, height);
}

function seedFor(canvas: HTMLCanvasElement): number {
  const written = canvas.dataset.kidlispSeed;
  const given = Number(written);
  if (written !== undefined && written !== '' && Number.isInteger(given)) return given;
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  return random[0] ?? 1;
}

/** Starts one canvas; returns a function that stops it. */
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
  const runtime = createKidlispRuntime(program.source, {
    surface: canvasSurface(context, canvas.width, canvas.height),
    seed: seedFor(canvas),
    loadEmbed: embedLoader(canvas.dataset.kidlispEmbeds || DEFAULT_EMBED_ENDPOINT),
    createSurface: offscreenSurface,
  });

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
    const result = runtime.frame({ frame, ms: now - start });
    frame++;
    if (result.reportChanged || frame === 1) showNotice(notice, describeReport(runtime.report()));
  };
  handle = requestAnimationFrame(step);
  return () => {
    stopped = true;
    cancelAnimationFrame(handle);
  };
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
