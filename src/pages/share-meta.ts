import { html, type SafeHtml } from '../http/html/html.js';
import type { Item, SharedKind } from '../operations/items/item.js';
import { rawExtOf } from '../operations/items/item-files.js';

type PageItem = Item<SharedKind>;

/** Thumbnails of KidLisp programs are this size (the player's canvas too). */
export const THUMBNAIL_SIZE = 256;

/** The item's page path: `/$code` for KidLisp, `/code` for the rest. */
export const pagePath = (item: PageItem) =>
  item.kind === 'kidlisp' ? `/$${item.code}` : `/${item.code}`;

/** Where the picture of an item is, if it has one: a rendered thumbnail for KidLisp (and `.lisp` pieces), the PNG of a painting. */
export function imagePath(item: PageItem): string | undefined {
  if (item.kind === 'kidlisp' || (item.kind === 'piece' && item.ext === 'lisp'))
    return `/thumbnail/${item.code}.png`;
  if (item.kind === 'painting') return `/${item.code}.${rawExtOf(item)}`;
  return undefined;
}

export function shareTitle(item: PageItem): string {
  switch (item.kind) {
    case 'kidlisp':
      return `$${item.code} · KidLisp`;
    case 'piece':
      return `${item.name || item.code} · piece`;
    case 'painting':
      return `${item.code} · painting`;
    case 'tape':
      return `${item.code} · tape`;
  }
}

export function shareDescription(item: PageItem): string {
  switch (item.kind) {
    case 'kidlisp': {
      const firstLine = (item.source ?? '').trim().split('\n')[0] ?? '';
      return firstLine.length > 140 ? `${firstLine.slice(0, 139)}…` : firstLine;
    }
    case 'piece':
      return `A ${item.ext === 'mjs' ? 'JavaScript' : item.ext} piece`;
    case 'painting':
      return 'A painting';
    case 'tape':
      return `A tape (${item.ext})`;
  }
}

/** The oEmbed endpoint's URL for a page (discovery link and tests). */
export const oembedUrl = (publicUrl: string, item: PageItem) =>
  `${publicUrl}/oembed?format=json&url=${encodeURIComponent(publicUrl + pagePath(item))}`;

/** Open Graph, Twitter card and oEmbed discovery elements for an item page's `<head>`. */
export function shareMeta(publicUrl: string, item: PageItem): SafeHtml {
  const image = imagePath(item);
  const title = shareTitle(item);
  return html`<meta property="og:type" content="website">
<meta property="og:site_name" content="publish-gateway">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${shareDescription(item)}">
<meta property="og:url" content="${publicUrl}${pagePath(item)}">
${
  image
    ? html`<meta property="og:image" content="${publicUrl}${image}">
${item.kind !== 'painting' ? html`<meta property="og:image:width" content="${THUMBNAIL_SIZE}"><meta property="og:image:height" content="${THUMBNAIL_SIZE}">` : ''}
<meta property="og:image:type" content="image/png">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="${publicUrl}${image}">`
    : html`<meta name="twitter:card" content="summary">`
}
<link rel="alternate" type="application/json+oembed" href="${oembedUrl(publicUrl, item)}" title="${title}">`;
}
