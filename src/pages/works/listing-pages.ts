import { formatCount } from '../../domain/format.js';
import { html, type SafeHtml } from '../../http/html/html.js';
import { layout } from '../../http/html/layout.js';
import type { ChatEntry } from '../../operations/chat/index.js';
import { ATOM_TYPE, JSON_FEED_TYPE } from './feeds.js';
import { type Pager, type Work, worksGrid } from './work-card.js';

export type ListingSort = 'recent' | 'hits';

/** What a listing shows: a page of works, or a search's results when `term` is set. */
export interface ListingView {
  works: readonly Work[];
  pager: Pager;
  /** The term in the search box, whose results these are. */
  term?: string | undefined;
  /** Why the term was not searched (it is too long), said on the page instead of results. */
  problem?: string | undefined;
}

/** `<link rel="alternate">` to a page's two feeds (`<path>.atom`, `<path>.json`). */
const feedLinks = (feedPath: string, title: string): SafeHtml =>
  html`<link rel="alternate" type="${ATOM_TYPE.split(';')[0]}" href="${feedPath}.atom" title="${title} (Atom)">
<link rel="alternate" type="${JSON_FEED_TYPE.split(';')[0]}" href="${feedPath}.json" title="${title} (JSON Feed)">`;

const feedNotice = (feedPath: string) =>
  html`<p class="feeds">Follow: <a href="${feedPath}.atom">Atom</a> · <a href="${feedPath}.json">JSON Feed</a></p>`;

/** A page URL with the sort kept and a cursor added. */
export const pageUrl = (path: string, sort: ListingSort) => (cursor: Record<string, string>) =>
  `${path}?${new URLSearchParams({ ...(sort === 'hits' ? { sort } : {}), ...cursor })}`;

/** The search box: a plain GET form (no script), the term kept in it. */
const searchForm = (path: string, label: string, term: string | undefined) =>
  html`<form class="search-form" role="search" method="get" action="${path}">
<label for="search-term">${label}</label>
<input id="search-term" type="search" name="search" value="${term ?? ''}">
<button type="submit">Search</button>
</form>`;

/** A search's results, what to say when it finds nothing, or why it did not search. */
function searchResults(view: ListingView, clearPath: string): SafeHtml {
  const term = view.term ?? '';
  const heading = html`<p class="search-status">${
    view.problem
      ? html`<strong class="search-problem" role="alert">${view.problem} Shorten it and search again.</strong>`
      : html`Works holding <q>${term}</q>`
  } · <a href="${clearPath}">clear the search</a></p>`;
  if (view.problem) return heading;
  return html`${heading}
${worksGrid(view.works, view.pager, { empty: `Nothing found for \u201c${term}\u201d.`, term })}`;
}

/** The grid of a listing: its works, or the search's results when it has a term. */
const listing = (view: ListingView, path: string, empty: string) =>
  view.term === undefined
    ? worksGrid(view.works, view.pager, { empty })
    : searchResults(view, path);

function sortTabs(path: string, sort: ListingSort): SafeHtml {
  const tab = (value: ListingSort, label: string) =>
    value === sort
      ? html`<strong aria-current="page">${label}</strong>`
      : html`<a href="${value === 'recent' ? path : `${path}?sort=hits`}">${label}</a>`;
  return html`<nav class="sort-tabs">${tab('recent', 'Recent')} · ${tab('hits', 'Popular')}</nav>`;
}

const chatLine = (entry: ChatEntry) =>
  html`<li><span class="from">${entry.presented?.from ?? 'anon'}</span> <span class="text">${entry.text}</span></li>`;

/**
 * `/`: the works of every kind as a grid (newest or most popular first, paged by cursor), the
 * latest chat messages, and the feeds; the search box above the grid shows a search's results
 * in its place.
 */
export function homePage(view: ListingView, sort: ListingSort, chat: ChatEntry[]): string {
  const label =
    view.term === undefined
      ? sort === 'hits'
        ? 'Popular works'
        : 'Recent works'
      : 'Search results';
  const body = html`<main class="home">
<header class="site"><h1>publish-gateway</h1><p class="meta">KidLisp programs, pieces, melodies, paintings and tapes, as they are published. Open one to run it, or <a href="/new">make your own</a>.</p></header>
<div class="home-tools">${searchForm('/', 'Search works', view.term)}${view.term === undefined ? sortTabs('/', sort) : ''}</div>
<div class="home-columns">
<section class="works" aria-label="${label}">
${listing(view, '/', 'Nothing is published here yet.')}
</section>
<aside class="latest-chat">
<h2>Chat</h2>
${chat.length ? html`<ol class="chat-lines">${chat.map(chatLine)}</ol>` : html`<p class="chat-empty">No messages yet.</p>`}
<p><a href="/chat">Open the chat</a></p>
${feedNotice('/feed')}
<p><a href="/api">API documentation</a></p>
</aside>
</div>
</main>`;
  return layout({
    title: 'publish-gateway',
    description: 'Recent and popular works: KidLisp, pieces, melodies, paintings and tapes.',
    body,
    head: feedLinks('/feed', 'Recent works'),
  });
}

/** `/@handle`: the author's works, newest first, paged, with how many there are; a search of them. */
export function authorPage(handle: string, count: number, view: ListingView): string {
  const path = `/${handle}`;
  const body = html`<main class="author-page">
<header class="item"><h1>${handle}</h1><p class="meta"><span class="work-count">${formatCount(count)} ${count === 1 ? 'work' : 'works'}</span> · <a href="/">all works</a></p></header>
<div class="home-tools">${searchForm(path, `Search ${handle}\u2019s works`, view.term)}</div>
${listing(view, path, 'Nothing is published here yet.')}
${feedNotice(`${path}/feed`)}
</main>`;
  return layout({
    title: `${handle} · works`,
    description: `Works by ${handle}.`,
    body,
    head: feedLinks(`${path}/feed`, `Works by ${handle}`),
  });
}
