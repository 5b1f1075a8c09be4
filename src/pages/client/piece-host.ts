/**
 * Browser entry for a piece page: hands the piece's source to its sandboxed frame
 * (`<iframe sandbox="allow-scripts" data-piece="<holder id>">`, an opaque origin) by postMessage
 * and shows what the frame reports in `[data-piece-notice]`, as text. Nothing of the piece runs in
 * this page's origin. Bundled into dist/public/piece-host.js by `npm run build:client`.
 */
import { showNotice } from './notice.js';
import type { PageToSandbox, SandboxToPage } from './piece-messages.js';

function readSource(id: string): string | undefined {
  try {
    const data: unknown = JSON.parse(document.getElementById(id)?.textContent ?? '');
    const source = (data as { source?: unknown } | null)?.source;
    return typeof source === 'string' ? source : undefined;
  } catch {
    return undefined;
  }
}

function isSandboxMessage(data: unknown): data is SandboxToPage {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string'
  );
}

export function hostPiece(frame: HTMLIFrameElement): void {
  const id = frame.dataset.piece || 'piece-source';
  const notice = document.querySelector<HTMLElement>(`[data-piece-notice="${CSS.escape(id)}"]`);
  const source = readSource(id);
  if (source === undefined) {
    showNotice(notice, [`No piece source found in #${id}`]);
    return;
  }
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    // Only the frame's own window; its origin is opaque ("null"), so the source is what identifies it.
    if (event.source !== frame.contentWindow || !isSandboxMessage(event.data)) return;
    const message = event.data;
    if (message.type === 'piece-sandbox-ready') {
      const start: PageToSandbox = { type: 'piece-source', source };
      // An opaque origin cannot be named as a target; the source is public anyway.
      frame.contentWindow?.postMessage(start, '*');
    } else if (message.type === 'piece-notice') {
      showNotice(notice, Array.isArray(message.lines) ? message.lines.map(String) : []);
    } else if (message.type === 'piece-state') {
      frame.dataset.state = String(message.state);
    }
  });
}

for (const frame of document.querySelectorAll<HTMLIFrameElement>('iframe[data-piece]'))
  hostPiece(frame);
