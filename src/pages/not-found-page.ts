import { html } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';

/** The 404 page: nothing at `path`, or what `message` says (an unknown author). */
export function notFoundPage(path: string, message?: string): string {
  const body = html`<main class="viewer not-found">
<h1>Not found</h1>
<p>${message ?? html`Nothing is published at <code>${path}</code>.`}</p>
<p><a href="/">Recent works</a></p>
<p><a href="/api">API documentation</a></p>
</main>`;
  return layout({ title: 'Not found', body });
}

export function errorPage(message: string): string {
  return layout({
    title: 'Unavailable',
    body: html`<main class="viewer"><h1>Unavailable</h1><p>${message}</p></main>`,
  });
}
