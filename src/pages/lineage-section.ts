import type { RequestContext } from '../context.js';
import { html, type SafeHtml } from '../http/html/html.js';
import type { Item, ItemKind, RemixLink } from '../operations/items/item.js';
import { parentRemoved, remixesConnection } from '../operations/lineage/lineage.js';
import { runOperation } from '../operations/operation.js';

/** Remixes listed on a page; older ones are a link away (`?remixes=<cursor>`). */
export const REMIXES_SHOWN = 24;

/** What an item's page shows of its lineage: its parent, and one page of its remixes. */
export interface PageLineage {
  remixOf: RemixLink | null;
  /** The parent was taken down: named, not linked. */
  parentRemoved?: boolean;
  remixes: Item[];
  /** The cursor of the next (older) page of remixes, when there is one. */
  olderCursor: string | null;
  /** This page of remixes is not the newest. */
  paged: boolean;
}

const KIND_NAMES: Record<ItemKind, string> = {
  kidlisp: 'KidLisp',
  clock: 'clock melody',
  piece: 'piece',
  painting: 'painting',
  tape: 'tape',
};

/** How a work is named in a link: `$code` for KidLisp, a piece's name, else its address. */
const labelOf = (kind: ItemKind, address: string, name: string | null = null) =>
  kind === 'kidlisp' ? `$${address}` : (name ?? address);

/** The page's "remix of" line and its list of remixes (server-rendered, no script). */
export function lineageSection(lineage: PageLineage): SafeHtml {
  const { remixOf, remixes } = lineage;
  if (!remixOf && remixes.length === 0 && !lineage.paged) return html``;
  const parent =
    remixOf && lineage.parentRemoved
      ? html`<p class="remix-of">remix of ${labelOf(remixOf.kind, remixOf.address)} <span class="kind">${KIND_NAMES[remixOf.kind]}</span> <span class="removed">(removed)</span></p>`
      : remixOf
        ? html`<p class="remix-of">remix of <a rel="related" href="/${remixOf.address}">${labelOf(remixOf.kind, remixOf.address)}</a> <span class="kind">${KIND_NAMES[remixOf.kind]}</span></p>`
        : '';
  const list =
    remixes.length === 0
      ? ''
      : html`<ul class="remixes">${remixes.map(
          (remix) =>
            html`<li><a href="/${remix.address}">${labelOf(remix.kind, remix.address, remix.name)}</a> <span class="kind">${KIND_NAMES[remix.kind]}</span> <time datetime="${remix.when.toISOString()}">${remix.when.toISOString().slice(0, 10)}</time></li>`,
        )}</ul>`;
  const paging =
    lineage.paged || lineage.olderCursor
      ? html`<p class="paging">${lineage.paged ? html`<a href="?">Newest remixes</a> ` : ''}${lineage.olderCursor ? html`<a href="?remixes=${lineage.olderCursor}">Older remixes</a>` : ''}</p>`
      : '';
  const heading = remixes.length || lineage.paged ? html`<h2>Remixes</h2>` : '';
  return html`<section class="lineage" aria-label="Remix lineage">${parent}${heading}${list}${paging}</section>`;
}

/**
 * The lineage section of `item`'s page: its parent, and the page of remixes after `cursor`
 * (the newest without one). A cursor this service did not issue is CURSOR_INVALID (400).
 */
export async function readLineageSection(
  ctx: RequestContext,
  item: Item,
  cursor: string | undefined,
): Promise<SafeHtml> {
  const page = await runOperation(remixesConnection, ctx, {
    parent: item,
    first: REMIXES_SHOWN,
    after: cursor,
  });
  return lineageSection({
    remixOf: item.remixOf,
    parentRemoved: await parentRemoved(ctx, item),
    remixes: page.edges.map((edge) => edge.node),
    olderCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    paged: cursor !== undefined,
  });
}
