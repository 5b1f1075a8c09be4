/**
 * Keys on a KidLisp canvas reach the program as the runtime reads them (runtime/input.ts):
 * Enter or Space press and release the pen where it is, the arrow keys move it. The canvas is
 * made focusable, so a visitor can tab to it; a click focuses it too.
 */
import type { KidlispRuntime } from '../../domain/kidlisp/runtime/index.js';

const KEYS: ReadonlySet<string> = new Set([
  'Enter',
  ' ',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
]);

export function listenForKeys(canvas: HTMLCanvasElement, runtime: KidlispRuntime): () => void {
  if (canvas.tabIndex < 0) canvas.tabIndex = 0;
  const forward = (type: 'keydown' | 'keyup') => (event: KeyboardEvent) => {
    if (!KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (event.repeat && !event.key.startsWith('Arrow')) return;
    runtime.key({ type, key: event.key });
  };
  const down = forward('keydown');
  const up = forward('keyup');
  canvas.addEventListener('keydown', down);
  canvas.addEventListener('keyup', up);
  return () => {
    canvas.removeEventListener('keydown', down);
    canvas.removeEventListener('keyup', up);
  };
}
