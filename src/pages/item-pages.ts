import { html, jsonForScript, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { Item, SharedKind } from '../operations/items/item.js';
import { type KidlispView, rawExtOf } from '../operations/items/item-files.js';
import { highlightedLines, highlightJavascript, highlightLisp } from './highlight.js';
import { shareMeta } from './share-meta.js';

/** Where the KidLisp player reads `$code` embeds from (`GET <endpoint>?code=`, docs/kidlisp-runtime.md). */
export const KIDLISP_EMBED_ENDPOINT = '/api/store-kidlisp';

/** The browser bundles (src/pages/client/, built into dist/public/, served under /assets). */
const KIDLISP_PLAYER = '/assets/kidlisp-player.js';
const PIECE_HOST = '/assets/piece-host.js';

/** The sandbox document pieces run in (src/pages/piece-sandbox.ts). */
export const PIECE_SANDBOX_PATH = '/sandbox/piece';

/** A canvas playing `source`, its notice, and the JSON holder the player reads (docs/kidlisp-runtime.md). */
function kidlispStage(source: string, label: string): SafeHtml {
  return html`<div class="stage">
<canvas class="player" data-kidlisp="kidlisp-source" data-kidlisp-embeds="${KIDLISP_EMBED_ENDPOINT}" width="256" height="256" aria-label="${label}"></canvas>
<div class="notice" data-kidlisp-notice="kidlisp-source" role="status" hidden></div>
<script type="application/json" id="kidlisp-source">${jsonForScript({ source })}</script>
</div>`;
}

/** A sandboxed frame the host script hands `source` to, and its notice. */
function pieceStage(source: string, label: string): SafeHtml {
  return html`<div class="stage">
<iframe class="player" sandbox="allow-scripts" src="${PIECE_SANDBOX_PATH}" title="${label}" width="256" height="256" referrerpolicy="no-referrer" data-piece="piece-source"></iframe>
<div class="notice" data-piece-notice="piece-source" role="status" hidden></div>
<script type="application/json" id="piece-source">${jsonForScript({ source })}</script>
</div>`;
}

/** The item's raw file, `/<code>.<ext>`. */
const rawFile = (item: Item<SharedKind>) => `${item.code}.${rawExtOf(item)}`;

const published = (when: Date) =>
  html`<time datetime="${when.toISOString()}">${when.toISOString().slice(0, 10)}</time>`;

function header(title: string, kind: string, when: Date, links: SafeHtml | string = ''): SafeHtml {
  return html`<header class="item"><h1>${title}</h1><p class="meta"><span class="kind">${kind}</span> published ${published(when)} ${links}</p></header>`;
}

function kidlispPage(item: KidlispView, publicUrl: string, lineage: SafeHtml): string {
  const { diagnostics, valid } = item.preview;
  const byLine = new Map<number, typeof diagnostics>();
  for (const diagnostic of diagnostics)
    byLine.set(diagnostic.line, [...(byLine.get(diagnostic.line) ?? []), diagnostic]);
  const lines = highlightedLines(item.source, highlightLisp).map((line, index) => {
    const marks = byLine.get(index + 1) ?? [];
    const severity = marks.some((mark) => mark.severity === 'error')
      ? 'error'
      : marks.length
        ? 'warning'
        : '';
    return html`<li class="${severity}"><code>${line}</code></li>`;
  });
  const body = html`<main class="viewer">
${header(`$${item.code}`, 'KidLisp', item.when, html`· <a href="/${rawFile(item)}">raw source</a> · <a class="remix-link" href="/new?remix=${item.code}">Remix</a>`)}
${lineage}
<div class="work">
${kidlispStage(item.source, `$${item.code} drawn`)}
<div class="code">
<p class="status ${valid ? 'valid' : 'invalid'}">${valid ? 'No errors' : 'Has errors'}: ${item.preview.errors.length} error(s), ${item.preview.warnings.length} warning(s).</p>
<ol class="source lisp" id="source">${lines}</ol>
${
  diagnostics.length
    ? html`<h2>Diagnostics</h2><ul class="diagnostics">${diagnostics.map(
        (d) =>
          html`<li class="${d.severity}"><span class="where">line ${d.line}, column ${d.column}</span> <span class="severity">${d.severity}</span> ${d.message}</li>`,
      )}</ul>`
    : ''
}
</div>
</div>
</main>`;
  return layout({
    title: `$${item.code} · KidLisp`,
    body,
    scripts: [KIDLISP_PLAYER],
    head: shareMeta(publicUrl, item),
  });
}

/** A piece's page: `lineage` is its lineage section (src/pages/lineage-section.ts). */
export function piecePage(
  item: Item<'piece'>,
  source: string | null,
  publicUrl: string,
  lineage: SafeHtml,
): string {
  const highlighted =
    source === null
      ? null
      : item.ext === 'mjs'
        ? highlightJavascript(source)
        : highlightLisp(source);
  const body = html`<main class="viewer">
${header(item.name || item.code, item.ext === 'mjs' ? 'JavaScript piece' : `${item.ext} piece`, item.when, html`· <a href="/${rawFile(item)}">${rawFile(item)}</a>`)}
${item.name ? html`<p class="meta">code <code>${item.code}</code></p>` : ''}
${lineage}
${
  source === null || highlighted === null
    ? html`<p class="missing">The source file is not available.</p>`
    : html`<div class="work">
${item.ext === 'mjs' ? pieceStage(source, `${item.name || item.code} running`) : item.ext === 'lisp' ? kidlispStage(source, `${item.name || item.code} drawn`) : ''}
<div class="code"><pre class="source ${item.ext}" id="source"><code>${highlighted}</code></pre></div>
</div>`
}
</main>`;
  const scripts =
    source === null
      ? []
      : item.ext === 'mjs'
        ? [PIECE_HOST]
        : item.ext === 'lisp'
          ? [KIDLISP_PLAYER]
          : [];
  return layout({
    title: `${item.name || item.code} · piece`,
    body,
    scripts,
    head: shareMeta(publicUrl, item),
  });
}

function paintingPage(item: Item<'painting'>, publicUrl: string, lineage: SafeHtml): string {
  const src = `/${rawFile(item)}`;
  const body = html`<main class="viewer">
${header(item.code, 'Painting', item.when, html`· <a href="${src}" download>download</a>`)}
${lineage}
<figure class="painting"><img src="${src}" alt="Painting ${item.code}"></figure>
</main>`;
  return layout({ title: `${item.code} · painting`, body, head: shareMeta(publicUrl, item) });
}

function tapePage(item: Item<'tape'>, publicUrl: string, lineage: SafeHtml): string {
  const src = `/${rawFile(item)}`;
  const duration = item.duration === null ? '' : html`· ${item.duration.toFixed(1)} s`;
  const player =
    item.ext === 'mp4'
      ? html`<video class="tape" controls preload="metadata" src="${src}">Your browser cannot play this video; <a href="${src}">download it</a>.</video>`
      : html`<p class="download">This tape is a recording archive (zip) of frames, which a browser cannot play. <a class="button" href="${src}" download>Download ${rawFile(item)}</a></p>`;
  const body = html`<main class="viewer">
${header(item.code, 'Tape', item.when, html`${duration} · <a href="${src}" download>download</a>`)}
${lineage}
${player}
</main>`;
  return layout({ title: `${item.code} · tape`, body, head: shareMeta(publicUrl, item) });
}

/**
 * The page of a KidLisp item (with its preview), a painting or a tape; pieces have `piecePage`.
 * `lineage` is its lineage section (src/pages/lineage-section.ts).
 */
export function itemPage(
  item: KidlispView | Item<'painting'> | Item<'tape'>,
  publicUrl: string,
  lineage: SafeHtml,
): string {
  switch (item.kind) {
    case 'kidlisp':
      return kidlispPage(item, publicUrl, lineage);
    case 'painting':
      return paintingPage(item, publicUrl, lineage);
    case 'tape':
      return tapePage(item, publicUrl, lineage);
  }
}
