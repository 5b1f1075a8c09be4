import type { Collection, Document, ObjectId } from 'mongodb';
import type { RequestContext } from '../../context.js';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { collectionNames, type RemixOfField } from '../../db/collections.js';
import type { PublishedPosition, PublishedSort } from './cursor.js';
import { collectionOf, type Item, type ItemKind, toItem } from './item.js';
import { excerptOf, groupPast, NAME_MATCH, rankGroups, searchFilter } from './works-search.js';

/** A slice of a `published` list: the list runs newest first (`recent`) or most hits first (`hits`). */
export interface PublishedWindow {
  kinds: readonly ItemKind[];
  sort: PublishedSort;
  /** Only works of these accounts (an author filter); undefined for everyone's. */
  users?: readonly string[] | undefined;
  /** Only works holding this term (a case-insensitive literal substring; works-search.ts). */
  search?: string | undefined;
  /** Only the remixes of this work (src/operations/lineage/). */
  remixOf?: RemixOfField | undefined;
  /** Only items strictly after this position in list order. */
  after?: PublishedPosition | undefined;
  /** Only items strictly before this position in list order. */
  before?: PublishedPosition | undefined;
  /** Read from the top of the list down (rows in list order) or from the bottom up (reversed). */
  end: 'top' | 'bottom';
  size: number;
}

export interface PublishedRow {
  item: Item;
  position: PublishedPosition;
  /** A search's excerpt around the first match; null without a search. */
  excerpt: string | null;
}

const collectionName: Record<ItemKind, string> = {
  kidlisp: collectionNames.kidlisp,
  clock: collectionNames.clocks,
  piece: collectionNames.pieces,
  painting: collectionNames.paintings,
  tape: collectionNames.tapes,
};

/** A missing `hits` ranks below every count, as MongoDB sorts it. */
const rankOf = (hits: unknown) => (typeof hits === 'number' ? hits : -1);

/**
 * Rows strictly past `p` in list order (`way` 'after') or strictly before it ('before').
 * The first `$lte`/`$gte` bounds the index scan; the `$or` breaks ties down to `_id`.
 */
function pastPosition(p: PublishedPosition, way: 'after' | 'before'): Document {
  const lt = way === 'after' ? '$lt' : '$gt';
  const le = way === 'after' ? '$lte' : '$gte';
  const timeAndId = [{ when: { [lt]: p.when } }, { when: p.when, _id: { [lt]: p.id } }];
  if (p.sort === 'recent') return { when: { [le]: p.when }, $or: timeAndId };
  const hits = p.hits < 0 ? null : p.hits;
  const sameHits = timeAndId.map((clause) => ({ hits, ...clause }));
  if (way === 'after') {
    // Past a count: smaller counts, then records without one; past "no count": only those.
    return p.hits < 0
      ? { hits: null, $or: timeAndId }
      : { $or: [{ hits: { $lt: p.hits } }, { hits: null }, ...sameHits] };
  }
  return p.hits < 0
    ? { $or: [{ hits: { $ne: null } }, ...sameHits] }
    : { $or: [{ hits: { $gt: p.hits } }, ...sameHits] };
}

const allOf = (clauses: Document[]): Document =>
  clauses.length <= 1 ? (clauses[0] ?? {}) : { $and: clauses };

/**
 * One read of a window: a kind's records, or, in a relevance list, the records of a kind that
 * share a name-match rank (works-search.ts), each read in its sort's index order.
 */
interface Branch {
  kind: ItemKind;
  filter: Document;
  nameMatch?: 0 | 1;
}

function branchesOf(window: PublishedWindow): Branch[] {
  const scope: Document[] = [];
  if (window.users) scope.push({ user: { $in: [...window.users] } });
  if (window.remixOf)
    scope.push({ 'remixOf.code': window.remixOf.code, 'remixOf.kind': window.remixOf.kind });
  const { search, after, before } = window;
  return window.kinds.flatMap((kind): Branch[] => {
    if (window.sort !== 'relevance' || search === undefined) {
      const clauses = [...scope];
      if (search !== undefined) clauses.push(searchFilter(kind, search));
      if (after) clauses.push(pastPosition(after, 'after'));
      if (before) clauses.push(pastPosition(before, 'before'));
      return [{ kind, filter: allOf(clauses) }];
    }
    return rankGroups(kind, search).flatMap(({ filter, nameMatch }): Branch[] => {
      const clauses = [...scope, filter];
      for (const [way, p] of [
        ['after', after],
        ['before', before],
      ] as const) {
        if (!p) continue;
        const stand = groupPast(p, way, nameMatch);
        if (stand === 'none') return [];
        // Within one rank, relevance is the hits order.
        if (stand === 'ties') clauses.push(pastPosition({ ...p, sort: 'hits' }, way));
      }
      return [{ kind, filter: allOf(clauses), nameMatch }];
    });
  });
}

/** The order of one branch's read; a relevance list merges its branches by rank first. */
const sortOf = (window: PublishedWindow, scope: 'branch' | 'merge'): Record<string, 1 | -1> => {
  const d: 1 | -1 = window.end === 'top' ? -1 : 1;
  if (window.sort === 'recent') return { when: d, _id: d };
  const hits = { hits: d, when: d, _id: d };
  return window.sort === 'relevance' && scope === 'merge' ? { [NAME_MATCH]: d, ...hits } : hits;
};

const KIND_FIELD = '__kind';

/**
 * ONE command per window whatever the kinds: a find for one branch; for several, an
 * aggregation where the other branches join through `$unionWith` and the merge keeps the list
 * order.
 */
export async function readPublished(
  ctx: RequestContext,
  window: PublishedWindow,
): Promise<PublishedRow[]> {
  if (window.size <= 0) return [];
  if (window.users && window.users.length === 0) return [];
  const [first, ...others] = branchesOf(window);
  if (!first) return [];
  const { db, config } = ctx.services;
  const batchSize = window.size + 1;
  const options = { batchSize, maxTimeMS: QUERY_TIME_LIMIT_MS };
  const collection = collectionOf(db, first.kind) as unknown as Collection<Document>;
  const branch = ({ kind, filter, nameMatch }: Branch) => [
    { $match: filter },
    { $sort: sortOf(window, 'branch') },
    { $limit: window.size },
    {
      $addFields: {
        [KIND_FIELD]: { $literal: kind },
        ...(nameMatch === undefined ? {} : { [NAME_MATCH]: { $literal: nameMatch } }),
      },
    },
  ];
  const rows: Document[] =
    others.length === 0 && first.nameMatch === undefined
      ? (
          await collection
            .find(first.filter, { sort: sortOf(window, 'branch'), limit: window.size, ...options })
            .toArray()
        ).map((row) => ({ ...row, [KIND_FIELD]: first.kind }))
      : await collection
          .aggregate(
            [
              ...branch(first),
              ...others.map((other) => ({
                $unionWith: { coll: collectionName[other.kind], pipeline: branch(other) },
              })),
              { $sort: sortOf(window, 'merge') },
              { $limit: window.size },
            ],
            options,
          )
          .toArray();
  return rows.map((row) => {
    const kind = row[KIND_FIELD] as ItemKind;
    const { [KIND_FIELD]: _kind, [NAME_MATCH]: nameMatch, ...record } = row;
    return {
      item: toItem(kind, record as never, config.publicUrl),
      position: {
        sort: window.sort,
        hits: rankOf(record.hits),
        when: record.when as Date,
        id: record._id as ObjectId,
        ...(window.sort === 'relevance' ? { nameMatch: nameMatch === 1 ? 1 : 0 } : {}),
      },
      excerpt: window.search ? excerptOf(kind, record, window.search) : null,
    };
  });
}
