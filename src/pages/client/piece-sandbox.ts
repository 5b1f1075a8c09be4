/**
 * Browser entry for the piece sandbox document (/sandbox/piece, src/pages/player-routes.ts): an
 * opaque-origin frame with no network. It asks its parent page for the piece's source, runs it in
 * a Worker (started from a blob: URL) drawing to this document's canvas through an
 * OffscreenCanvas, forwards pointer events, and terminates the Worker when it stops reporting
 * frames for FRAME_BUDGET_MS (an endless loop, a frame that never ends). Everything worth telling
 * the visitor goes to the parent as notice lines. Bundled into dist/public/piece-sandbox.js.
 */
import type {
  PageToSandbox,
  PointerMessage,
  SandboxToPage,
  SandboxToWorker,
  WorkerToSandbox,
} from './piece-messages.js';
import { pieceWorker } from './piece-worker.js';

/** How long a piece may go without finishing a frame (module load, boot, sim + paint, act). */
export const FRAME_BUDGET_MS = 1_000;

const toParent = (message: SandboxToPage) => window.parent.postMessage(message, '*');

const canvas = document.getElementById('screen') as HTMLCanvasElement;
// The document's policy allows no stylesheet; the CSSOM is not a stylesheet.
for (const element of [document.documentElement, document.body]) {
  element.style.margin = '0';
  element.style.overflow = 'hidden';
  element.style.background = '#000';
}
canvas.style.display = 'block';
canvas.style.width = '100vw';
canvas.style.height = '100vh';
canvas.style.touchAction = 'none';
let started = false;
const unsupported: string[] = [];
let ending: string | undefined;

function sendNotice(): void {
  const lines: string[] = [];
  if (unsupported.length)
    lines.push(`Not supported yet (these calls did nothing): ${unsupported.join(', ')}`);
  if (ending) lines.push(ending);
  toParent({ type: 'piece-notice', lines });
}

function run(source: string): void {
  let worker: Worker;
  try {
    const text = `(${pieceWorker.toString()})();`;
    worker = new Worker(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
  } catch (error) {
    ending = `The piece cannot run here: ${(error as Error).message}`;
    toParent({ type: 'piece-state', state: 'failed' });
    sendNotice();
    return;
  }
  let lastBeat = performance.now();
  const stop = (why: string, state: 'stopped' | 'failed') => {
    worker.terminate();
    clearInterval(watchdog);
    ending = why;
    toParent({ type: 'piece-state', state });
    sendNotice();
  };
  const watchdog = setInterval(() => {
    const quiet = performance.now() - lastBeat;
    if (quiet > FRAME_BUDGET_MS)
      stop(
        `Stopped: the piece did not finish a frame within ${FRAME_BUDGET_MS / 1000} s (an endless loop?), so it was terminated.`,
        'stopped',
      );
  }, 100);
  worker.addEventListener('message', (event: MessageEvent<WorkerToSandbox>) => {
    const message = event.data;
    if (message.type === 'frame') {
      if (message.frame === 0) toParent({ type: 'piece-state', state: 'running' });
      lastBeat = performance.now();
    } else if (message.type === 'unsupported') {
      unsupported.splice(0, unsupported.length, ...message.names.map(String));
      sendNotice();
    } else if (message.type === 'failed') {
      stop(`Stopped: the piece failed: ${message.message}`, 'failed');
    }
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    stop(`Stopped: the piece failed: ${event.message || 'an error in its Worker'}`, 'failed');
  });

  const offscreen = canvas.transferControlToOffscreen();
  const start: SandboxToWorker = {
    type: 'start',
    source,
    canvas: offscreen,
    width: canvas.width,
    height: canvas.height,
  };
  worker.postMessage(start, [offscreen]);

  const forward = (is: PointerMessage['is']) => (event: PointerEvent) => {
    const bounds = canvas.getBoundingClientRect();
    const x = Math.floor(((event.clientX - bounds.left) / bounds.width) * canvas.width);
    const y = Math.floor(((event.clientY - bounds.top) / bounds.height) * canvas.height);
    const message: SandboxToWorker = { type: 'pointer', event: { is, x, y } };
    worker.postMessage(message);
  };
  let down = false;
  canvas.addEventListener('pointerdown', (event) => {
    down = true;
    forward('touch')(event);
  });
  canvas.addEventListener('pointermove', (event) => forward(down ? 'draw' : 'move')(event));
  canvas.addEventListener('pointerup', (event) => {
    down = false;
    forward('lift')(event);
  });
}

window.addEventListener('message', (event: MessageEvent<PageToSandbox>) => {
  if (event.source !== window.parent || started) return;
  const message = event.data;
  if (message?.type !== 'piece-source' || typeof message.source !== 'string') return;
  started = true;
  clearInterval(asking);
  run(message.source);
});

// The parent's script may start listening after this frame loads, so ask until it answers.
toParent({ type: 'piece-sandbox-ready' });
const asking = setInterval(() => toParent({ type: 'piece-sandbox-ready' }), 200);
