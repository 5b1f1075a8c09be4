import { escapeHtml } from '../../http/html/html.js';
import { THUMBNAIL_SIZE } from '../share-meta.js';
import { kindLabel, type Work, workImage, workPath, workSummary, workTitle } from './work-card.js';

/** What a feed is of, and where it and its HTML page are. */
export interface FeedInfo {
  title: string;
  /** The feed's path without its extension: `/feed` or `/@handle/feed`. */
  path: string;
  /** The HTML page the feed follows: `/` or `/@handle`. */
  pagePath: string;
  publicUrl: string;
}

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
export const JSON_FEED_TYPE = 'application/feed+json; charset=utf-8';

/** XML 1.0 has no place for most control characters (a program may hold them): they are left out. */
const xmlText = (text: string) =>
  escapeHtml(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu, ''),
  );

/** The time a feed was last changed: its newest work's; the epoch for an empty feed. */
export const feedUpdated = (works: readonly Work[]) => works[0]?.item.when ?? new Date(0);

const entryFacts = (info: FeedInfo, { item, author }: Work) => {
  const image = workImage(item);
  return {
    url: `${info.publicUrl}${workPath(item)}`,
    title: `${workTitle(item)} · ${kindLabel(item)}`,
    summary: workSummary(item),
    image: image ? `${info.publicUrl}${image}` : null,
    authorUrl: author ? `${info.publicUrl}/${author}` : null,
  };
};

/** Atom 1.0 (RFC 4287), newest first; each entry names its kind (category), author and picture (Media RSS). */
export function atomFeed(info: FeedInfo, works: readonly Work[]): string {
  const self = `${info.publicUrl}${info.path}.atom`;
  const entries = works.map((work) => {
    const facts = entryFacts(info, work);
    const when = work.item.when.toISOString();
    return `<entry>
<id>${xmlText(facts.url)}</id>
<title>${xmlText(facts.title)}</title>
<link rel="alternate" type="text/html" href="${xmlText(facts.url)}"/>
<published>${when}</published>
<updated>${when}</updated>
<author><name>${xmlText(work.author ?? 'anonymous')}</name>${facts.authorUrl ? `<uri>${xmlText(facts.authorUrl)}</uri>` : ''}</author>
<category term="${work.item.kind}" label="${xmlText(kindLabel(work.item))}"/>
<summary>${xmlText(facts.summary)}</summary>
${facts.image ? `<link rel="enclosure" type="image/png" href="${xmlText(facts.image)}"/>\n<media:thumbnail url="${xmlText(facts.image)}" width="${THUMBNAIL_SIZE}" height="${THUMBNAIL_SIZE}"/>\n` : ''}</entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
<id>${xmlText(self)}</id>
<title>${xmlText(info.title)}</title>
<updated>${feedUpdated(works).toISOString()}</updated>
<link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>
<link rel="alternate" type="text/html" href="${xmlText(`${info.publicUrl}${info.pagePath}`)}"/>
<generator>publish-gateway</generator>
${entries.join('\n')}
</feed>
`;
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1), newest first; `_work` names each item's kind and code. */
export function jsonFeed(info: FeedInfo, works: readonly Work[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: info.title,
    home_page_url: `${info.publicUrl}${info.pagePath}`,
    feed_url: `${info.publicUrl}${info.path}.json`,
    items: works.map((work) => {
      const facts = entryFacts(info, work);
      return {
        id: facts.url,
        url: facts.url,
        title: facts.title,
        content_text: facts.summary,
        date_published: work.item.when.toISOString(),
        authors: [
          work.author ? { name: work.author, url: facts.authorUrl } : { name: 'anonymous' },
        ],
        tags: [work.item.kind],
        ...(facts.image ? { image: facts.image } : {}),
        _work: { kind: work.item.kind, code: work.item.code },
      };
    }),
  });
}
