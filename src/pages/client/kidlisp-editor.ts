/**
 * Browser entry of `/new`: the KidLisp editor (CodeMirror) beside a live preview drawn by the
 * work pages' own player (kidlisp-player.ts), with the server's validator running in the page.
 * Bundled by `npm run build:client` into dist/public/kidlisp-editor.js (docs/editor.md).
 */
import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { previewKidlisp } from '../../domain/kidlisp/index.js';
import type { KidlispDiagnostic } from '../../domain/kidlisp/types.js';
import { byId, debounce, listProblems, startEditor } from './editor/editor-page.js';
import { kidlispLanguage } from './editor/kidlisp-language.js';
import { downloadGif, downloadPng } from './editor/preview-downloads.js';
import { playKidlisp } from './kidlisp-player.js';

/** The JSON holder the player reads the preview's program from (src/pages/editor/editor-page.ts). */
const PREVIEW_SOURCE_ID = 'editor-source';
/** How long the person must pause before the preview restarts with what they typed. */
const RESTART_DELAY_MS = 250;

/** A validator position (1-based line and column) as an offset into the editor's text. */
function offsetOf(doc: Text, diagnostic: KidlispDiagnostic): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, diagnostic.line), doc.lines));
  const from = Math.min(line.from + Math.max(0, diagnostic.column - 1), line.to);
  return { from, to: Math.min(from + 1, line.to) };
}

const canvas = byId<HTMLCanvasElement>('preview');
const holder = byId('editor-source');
const notDrawn = byId('not-drawn');
let view: EditorView;
let stopPreview = () => {};
let runs = 0;

/** Restarts the preview with the editor's text: the same player, on the page's only canvas. */
function runPreview(): void {
  stopPreview();
  const source = view.state.doc.toString();
  holder.textContent = JSON.stringify({ source });
  canvas.dataset.kidlisp = PREVIEW_SOURCE_ID;
  canvas.dataset.previewRun = String(++runs);
  stopPreview = playKidlisp(canvas);
}

/** The validator's problems, inline and in the list; the notice names the words not drawn here. */
function validate(source: string): Diagnostic[] {
  const preview = previewKidlisp(source);
  listProblems(preview.diagnostics);
  const words = preview.stats.not_drawn;
  notDrawn.hidden = words.length === 0;
  notDrawn.textContent = words.length
    ? `Not drawn in this preview: ${words.join(', ')} (the program is fine; this player lacks them).`
    : '';
  return preview.diagnostics.map((diagnostic) => ({
    ...offsetOf(view.state.doc, diagnostic),
    severity: diagnostic.severity,
    message: diagnostic.message,
  }));
}

const restart = debounce(RESTART_DELAY_MS, runPreview);
view = startEditor({
  label: 'KidLisp source',
  publishPath: '/api/store-kidlisp',
  language: kidlispLanguage,
  lint: validate,
  onChange: () => restart.schedule(),
  onRun: () => restart.now(),
});
byId('run').addEventListener('click', () => restart.now());
byId('download-png').addEventListener('click', () => downloadPng(canvas));
byId('download-gif').addEventListener('click', () => downloadGif(view.state.doc.toString()));
runPreview();
