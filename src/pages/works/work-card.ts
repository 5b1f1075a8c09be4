import { html, type SafeHtml } from '../../http/html/html.js';
import type { Item } from '../../operations/items/item.js';
import type { Connection } from '../../operations/paging.js';
import { escapeRegExp } from '../../operations/search-term.js';
import { imagePath, pagePath, THUMBNAIL_SIZE } from '../share-meta.js';

/**
 * A work as the listings show it: the item and its author's `@handle` (null when anonymous),
 * and, in a search's results, the excerpt around the match.
 */
export interface Work {
  item: Item;
  author: string | null;
  excerpt?: string | null;
  /** The hash of its stored thumbnail, when one is drawn (thumbnail-store.ts). */
  thumbnail?: string | undefined;
}

export type WorksPage = Connection<Work>;

/** The work's page: `/$code` (KidLisp), `/clock~code` (a melody), `/code` for the rest. */
export const workPath = (item: Item) =>
  item.kind === 'clock' ? `/clock~${item.code}` : pagePath(item);

/**
 * The work's picture, when it has one: a drawn thumbnail (KidLisp, `.lisp` pieces) or the painting.
 * A stored thumbnail's hash goes in its URL, so a listing changes (and its ETag) when it is drawn.
 */
export const workImage = (item: Item, thumbnail?: string) => {
  const image = item.kind === 'clock' ? undefined : imagePath(item);
  return image && thumbnail ? `${image}?v=${thumbnail.slice(0, 16)}` : image;
};

export function workTitle(item: Item): string {
  switch (item.kind) {
    case 'kidlisp':
      return `$${item.code}`;
    case 'clock':
      return `clock~${item.code}`;
    case 'piece':
      return item.name || item.code;
    default:
      return item.code;
  }
}

const KIND_LABELS: Record<Item['kind'], string> = {
  kidlisp: 'KidLisp',
  clock: 'melody',
  piece: 'piece',
  painting: 'painting',
  tape: 'tape',
};
export const kindLabel = (item: Item) => KIND_LABELS[item.kind];

/** One line about the work for listings and feeds: a melody's or program's first line, a piece's kind, a tape's length. */
export function workSummary(item: Item): string {
  switch (item.kind) {
    case 'kidlisp':
    case 'clock': {
      const firstLine = (item.source ?? '').trim().split('\n')[0] ?? '';
      return firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
    }
    case 'piece':
      return item.ext === 'mjs' ? 'JavaScript piece' : `${item.ext} piece`;
    case 'painting':
      return 'painting';
    case 'tape':
      return item.duration === null ? `tape (${item.ext})` : `${item.duration.toFixed(1)} s tape`;
  }
}

const authorLink = (author: string | null) =>
  author
    ? html`<a class="author" href="/${author}">${author}</a>`
    : html`<span class="author">anonymous</span>`;

/** The excerpt with the first occurrence of the term marked (as the search matched it: case-insensitive). */
function markedExcerpt(excerpt: string, term: string | undefined): SafeHtml {
  const match = term ? new RegExp(escapeRegExp(term), 'i').exec(excerpt) : null;
  if (!match) return html`<p class="excerpt">${excerpt}</p>`;
  const end = match.index + match[0].length;
  return html`<p class="excerpt">${excerpt.slice(0, match.index)}<mark>${match[0]}</mark>${excerpt.slice(end)}</p>`;
}

/** A grid cell: the picture (or a tile with the work's first line), its title and facts, linking to its page. */
function workCard({ item, author, excerpt, thumbnail }: Work, term: string | undefined): SafeHtml {
  const image = workImage(item, thumbnail);
  const title = workTitle(item);
  const picture = image
    ? html`<img class="picture" src="${image}" alt="${title}" width="${THUMBNAIL_SIZE}" height="${THUMBNAIL_SIZE}" loading="lazy">`
    : html`<span class="picture tile" aria-hidden="true">${workSummary(item)}</span>`;
  return html`<li class="work-card kind-${item.kind}" data-code="${item.code}">
<a class="work-link" href="${workPath(item)}">${picture}<span class="title">${title}</span></a>
<p class="meta"><span class="kind">${kindLabel(item)}</span> · ${authorLink(author)} · <time datetime="${item.when.toISOString()}">${item.when.toISOString().slice(0, 10)}</time></p>
${excerpt ? markedExcerpt(excerpt, term) : ''}
</li>`;
}

/** The links to the pages beside this one (hrefs; null where the list ends). */
export interface Pager {
  previous: string | null;
  next: string | null;
}

/** The pager of a Relay page: its start and end cursors as `before` and `after`. */
export const relayPager = (
  { pageInfo }: WorksPage,
  pageUrl: (cursor: Record<string, string>) => string,
): Pager => ({
  previous:
    pageInfo.hasPreviousPage && pageInfo.startCursor
      ? pageUrl({ before: pageInfo.startCursor })
      : null,
  next: pageInfo.hasNextPage && pageInfo.endCursor ? pageUrl({ after: pageInfo.endCursor }) : null,
});

/**
 * The grid of a page of works (excerpts marked with a search's `term`), what to say when it is
 * empty, and links to the pages beside it.
 */
export function worksGrid(
  works: readonly Work[],
  pager: Pager,
  options: { empty: string; term?: string | undefined },
): SafeHtml {
  const newer = pager.previous ? html`<a rel="prev" href="${pager.previous}">← previous</a>` : '';
  const older = pager.next ? html`<a rel="next" href="${pager.next}">next →</a>` : '';
  return html`<ol class="works-grid">${works.map((work) => workCard(work, options.term))}</ol>
${works.length === 0 ? html`<p class="works-empty">${options.empty}</p>` : ''}
${newer || older ? html`<nav class="pager">${newer} ${older}</nav>` : ''}`;
}
