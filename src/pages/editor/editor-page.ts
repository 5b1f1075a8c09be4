import { html, jsonForScript, type SafeHtml } from '../../http/html/html.js';
import { layout } from '../../http/html/layout.js';
import type { EditorKind } from './editor-kinds.js';

/** The browser bundles of the two editors (src/pages/client/, served under /assets). */
const EDITOR_SCRIPTS: Record<EditorKind, string[]> = {
  kidlisp: ['/assets/kidlisp-editor.js'],
  clock: ['/assets/clock-editor.js', '/assets/clock.js'],
};

/** The id of the JSON holder the KidLisp player reads the preview's program from. */
export const PREVIEW_SOURCE_ID = 'editor-source';

export interface EditorPageView {
  kind: EditorKind;
  source: string;
  /** The address of the work being remixed (`abc`, `clock~bako`), or null for a new work. */
  remixOf: string | null;
  /** What the last publish of this form failed with (the no-script form), said on the page. */
  failure: string | null;
}

const TITLES: Record<EditorKind, string> = { kidlisp: 'New KidLisp', clock: 'New clock melody' };

/** How the remixed work is named: `$code` for KidLisp, its address for a melody. */
const remixLabel = (kind: EditorKind, address: string) =>
  kind === 'kidlisp' ? `$${address}` : address;

function kidlispPreview(source: string): SafeHtml {
  return html`<section class="editor-preview" id="preview-panel" aria-label="Preview" hidden>
<canvas id="preview" class="player" width="256" height="256" aria-label="Preview of the program"></canvas>
<div class="notice" data-kidlisp-notice="${PREVIEW_SOURCE_ID}" role="status" hidden></div>
<script type="application/json" id="${PREVIEW_SOURCE_ID}">${jsonForScript({ source })}</script>
<p class="editor-actions">
<button type="button" id="run">Run now</button>
<button type="button" id="download-png">Download PNG</button>
<button type="button" id="download-gif">Download GIF</button>
</p>
</section>`;
}

/** The clock page's player controls (public/clock.js plays #melody-data; the editor keeps it current). */
function clockPlayer(): SafeHtml {
  return html`<section class="controls" id="preview-panel" aria-label="Playback" hidden>
<button type="button" id="play">Play</button>
<button type="button" id="stop" disabled>Stop</button>
<span id="player-status" role="status">Stopped</span>
<script type="application/json" id="melody-data">{"tracks":[],"sections":[]}</script>
</section>`;
}

/**
 * `/new`: a plain form (a textarea and a Publish button) that publishes without any script;
 * the editor's bundle turns it into a code editor with a live preview (docs/editor.md).
 */
export function editorPage(view: EditorPageView): string {
  const { kind, source, remixOf, failure } = view;
  const label = kind === 'kidlisp' ? 'KidLisp source' : 'Melody';
  const remixLine = remixOf
    ? html`<p class="remix-of" id="remixing">Remix of <a href="/${remixOf}">${remixLabel(kind, remixOf)}</a>: publishing makes a new work that links it.</p>`
    : '';
  const otherKind =
    kind === 'kidlisp'
      ? html`<a href="/new?kind=clock">Write a clock melody instead</a>`
      : html`<a href="/new">Write KidLisp instead</a>`;
  const body = html`<main class="viewer editor-page">
<header class="item"><h1>${TITLES[kind]}</h1><p class="meta">${otherKind} · <a href="/">Recent works</a></p></header>
${remixLine}
<form class="editor" id="editor-form" method="post" action="/new" data-editor-kind="${kind}">
<input type="hidden" name="kind" value="${kind}">
${remixOf ? html`<input type="hidden" name="remixOf" value="${remixOf}">` : ''}
${failure ? html`<p class="publish-failure" role="alert" id="publish-failure">${failure}</p>` : ''}
<div class="editor-grid">
<div class="editor-code">
<label for="source" id="source-label">${label}</label>
<textarea id="source" name="source" rows="14" spellcheck="false" autocapitalize="off" autocomplete="off">${source}</textarea>
<div id="code-editor" class="code-editor" hidden></div>
<p class="editor-hint" id="editor-hint" hidden>Ctrl+Enter (⌘+Enter on a Mac) runs now. Tab leaves the editor; to indent, type spaces.</p>
<ul class="diagnostics" id="editor-diagnostics" aria-live="polite" aria-label="Problems"></ul>
<p class="notice" id="not-drawn" role="status" hidden></p>
</div>
${kind === 'kidlisp' ? kidlispPreview(source) : clockPlayer()}
</div>
<p class="publish-row"><button type="submit" id="publish">Publish</button> <button type="button" id="discard-draft" hidden>Discard draft</button> <span id="publish-status" role="status"></span></p>
</form>
<script type="application/json" id="editor-data">${jsonForScript({ kind, remixOf, source })}</script>
</main>`;
  return layout({
    title: TITLES[kind],
    body,
    scripts: EDITOR_SCRIPTS[kind],
    head: html`<link rel="stylesheet" href="/assets/editor.css">`,
  });
}
