import { html, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import {
  type KidlispView,
  type PublishedItem,
  rawExt,
} from '../operations/items/published-item.js';
import { highlightedLines, highlightJavascript, highlightLisp } from './highlight.js';

type Item<K extends PublishedItem['type']> = Extract<PublishedItem, { type: K }>;

/** The item's raw file, `/<code>.<ext>`. */
const rawFile = (item: PublishedItem) => `${item.code}.${rawExt(item)}`;

const published = (when: Date) =>
  html`<time datetime="${when.toISOString()}">${when.toISOString().slice(0, 10)}</time>`;

function header(title: string, kind: string, when: Date, links: SafeHtml | string = ''): SafeHtml {
  return html`<header class="item"><h1>${title}</h1><p class="meta"><span class="kind">${kind}</span> published ${published(when)} ${links}</p></header>`;
}

function kidlispPage(item: KidlispView): string {
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
${header(`$${item.code}`, 'KidLisp', item.when, html`· <a href="/${rawFile(item)}">raw source</a>`)}
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
</main>`;
  return layout({ title: `$${item.code} · KidLisp`, body });
}

export function piecePage(item: Item<'piece'>, source: string | null): string {
  const highlighted =
    source === null
      ? null
      : item.ext === 'mjs'
        ? highlightJavascript(source)
        : highlightLisp(source);
  const body = html`<main class="viewer">
${header(item.name ?? item.code, item.ext === 'mjs' ? 'JavaScript piece' : `${item.ext} piece`, item.when, html`· <a href="/${rawFile(item)}">${rawFile(item)}</a>`)}
${item.name ? html`<p class="meta">code <code>${item.code}</code></p>` : ''}
${highlighted ? html`<pre class="source ${item.ext}" id="source"><code>${highlighted}</code></pre>` : html`<p class="missing">The source file is not available.</p>`}
</main>`;
  return layout({ title: `${item.name ?? item.code} · piece`, body });
}

function paintingPage(item: Item<'painting'>): string {
  const src = `/${rawFile(item)}`;
  const body = html`<main class="viewer">
${header(item.code, 'Painting', item.when, html`· <a href="${src}" download>download</a>`)}
<figure class="painting"><img src="${src}" alt="Painting ${item.code}"></figure>
</main>`;
  return layout({ title: `${item.code} · painting`, body });
}

function tapePage(item: Item<'tape'>): string {
  const src = `/${rawFile(item)}`;
  const duration =
    item.totalDuration === undefined ? '' : html`· ${item.totalDuration.toFixed(1)} s`;
  const player =
    item.format === 'mp4'
      ? html`<video class="tape" controls preload="metadata" src="${src}">Your browser cannot play this video; <a href="${src}">download it</a>.</video>`
      : html`<p>This tape is a recording archive (zip): <a href="${src}" download>download ${rawFile(item)}</a>.</p>`;
  const body = html`<main class="viewer">
${header(item.code, 'Tape', item.when, html`${duration} · <a href="${src}" download>download</a>`)}
${player}
</main>`;
  return layout({ title: `${item.code} · tape`, body });
}

/** The page of a KidLisp item (with its preview), a painting or a tape; pieces have `piecePage`. */
export function itemPage(item: KidlispView | Item<'painting'> | Item<'tape'>): string {
  switch (item.type) {
    case 'kidlisp':
      return kidlispPage(item);
    case 'painting':
      return paintingPage(item);
    case 'tape':
      return tapePage(item);
  }
}
