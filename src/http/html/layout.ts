import { html, type SafeHtml } from './html.js';

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Same-origin script files (the CSP allows no inline script). */
  scripts?: string[];
  description?: string;
  /** More `<head>` elements (share metadata). */
  head?: SafeHtml;
}

/** The document shell every page shares: one stylesheet, no inline script or style. */
export function layout({ title, body, scripts = [], description, head }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${description ? html`<meta name="description" content="${description}">` : ''}
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/pages.css">
${head ?? ''}
</head>
<body>
${body}
${scripts.map((src) => html`<script src="${src}"></script>`)}
</body>
</html>
`.value;
}
