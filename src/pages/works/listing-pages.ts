import { formatCount } from '../../domain/format.js';
import { html, type SafeHtml } from '../../http/html/html.js';
import { layout } from '../../http/html/layout.js';
import type { ChatEntry } from '../../operations/chat/index.js';
import { ATOM_TYPE, JSON_FEED_TYPE } from './feeds.js';
import { type WorksPage, worksGrid } from './work-card.js';

export type ListingSort = 'recent' | 'hits';

/** `<link rel="alternate">` to a page's two feeds (`<path>.atom`, `<path>.json`). */
const feedLinks = (feedPath: string, title: string): SafeHtml =>
  html`<link rel="alternate" type="${ATOM_TYPE.split(';')[0]}" href="${feedPath}.atom" title="${title} (Atom)">
<link rel="alternate" type="${JSON_FEED_TYPE.split(';')[0]}" href="${feedPath}.json" title="${title} (JSON Feed)">`;

const feedNotice = (feedPath: string) =>
  html`<p class="feeds">Follow: <a href="${feedPath}.atom">Atom</a> · <a href="${feedPath}.json">JSON Feed</a></p>`;

/** A page URL with the sort kept and a cursor added. */
const pageUrl = (path: string, sort: ListingSort) => (cursor: Record<string, string>) =>
  `${path}?${new URLSearchParams({ ...(sort === 'hits' ? { sort } : {}), ...cursor })}`;

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
 * latest chat messages, and the feeds. The tools row is where a search form will go.
 */
export function homePage(page: WorksPage, sort: ListingSort, chat: ChatEntry[]): string {
  const body = html`<main class="home">
<header class="site"><h1>publish-gateway</h1><p class="meta">KidLisp programs, pieces, melodies, paintings and tapes, as they are published. Open one to run it.</p></header>
<div class="home-tools">${sortTabs('/', sort)}</div>
<div class="home-columns">
<section class="works" aria-label="${sort === 'hits' ? 'Popular works' : 'Recent works'}">
${worksGrid(page, pageUrl('/', sort))}
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

/** `/@handle`: the author's works, newest first, paged, with how many there are. */
export function authorPage(handle: string, count: number, page: WorksPage): string {
  const path = `/${handle}`;
  const body = html`<main class="author-page">
<header class="item"><h1>${handle}</h1><p class="meta"><span class="work-count">${formatCount(count)} ${count === 1 ? 'work' : 'works'}</span> · <a href="/">all works</a></p></header>
${worksGrid(page, pageUrl(path, 'recent'))}
${feedNotice(`${path}/feed`)}
</main>`;
  return layout({
    title: `${handle} · works`,
    description: `Works by ${handle}.`,
    body,
    head: feedLinks(`${path}/feed`, `Works by ${handle}`),
  });
}
