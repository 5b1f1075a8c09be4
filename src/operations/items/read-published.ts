import type { Collection, Document, ObjectId } from 'mongodb';
import type { RequestContext } from '../../context.js';
import { QUERY_TIME_LIMIT_MS } from '../../db/client.js';
import { collectionNames, type RemixOfField } from '../../db/collections.js';
import type { PublishedPosition, PublishedSort } from './cursor.js';
import { collectionOf, type Item, type ItemKind, toItem } from './item.js';

/** A slice of a `published` list: the list runs newest first (`recent`) or most hits first (`hits`). */
export interface PublishedWindow {
  kinds: readonly ItemKind[];
  sort: PublishedSort;
  /** Only works of these accounts (an author filter); undefined for everyone's. */
  users?: readonly string[] | undefined;
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

function filterOf(window: PublishedWindow): Document {
  const clauses: Document[] = [];
  if (window.users) clauses.push({ user: { $in: [...window.users] } });
  if (window.remixOf)
    clauses.push({ 'remixOf.code': window.remixOf.code, 'remixOf.kind': window.remixOf.kind });
  if (window.after) clauses.push(pastPosition(window.after, 'after'));
  if (window.before) clauses.push(pastPosition(window.before, 'before'));
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? (clauses[0] as Document) : { $and: clauses };
}

const sortOf = (window: PublishedWindow): Record<string, 1 | -1> => {
  const d = window.end === 'top' ? -1 : 1;
  return window.sort === 'recent' ? { when: d, _id: d } : { hits: d, when: d, _id: d };
};

const KIND_FIELD = '__kind';

/**
 * ONE command per window whatever the kinds: a find for one kind; for several, an aggregation
 * where the other collections join through `$unionWith` and the merge keeps the list order.
 */
export async function readPublished(
  ctx: RequestContext,
  window: PublishedWindow,
): Promise<PublishedRow[]> {
  const [first, ...others] = window.kinds;
  if (!first || window.size <= 0) return [];
  if (window.users && window.users.length === 0) return [];
  const { db, config } = ctx.services;
  const filter = filterOf(window);
  const sort = sortOf(window);
  const batchSize = window.size + 1;
  let rows: Document[];
  if (others.length === 0) {
    rows = (
      await (collectionOf(db, first) as unknown as Collection<Document>)
        .find(filter, { sort, limit: window.size, batchSize, maxTimeMS: QUERY_TIME_LIMIT_MS })
        .toArray()
    ).map((row) => ({ ...row, [KIND_FIELD]: first }));
  } else {
    const branch = (kind: ItemKind) => [
      { $match: filter },
      { $sort: sort },
      { $limit: window.size },
      { $addFields: { [KIND_FIELD]: { $literal: kind } } },
    ];
    rows = await (collectionOf(db, first) as unknown as Collection<Document>)
      .aggregate(
        [
          ...branch(first),
          ...others.map((kind) => ({
            $unionWith: { coll: collectionName[kind], pipeline: branch(kind) },
          })),
          { $sort: sort },
          { $limit: window.size },
        ],
        { batchSize, maxTimeMS: QUERY_TIME_LIMIT_MS },
      )
      .toArray();
  }
  return rows.map((row) => {
    const kind = row[KIND_FIELD] as ItemKind;
    const { [KIND_FIELD]: _kind, ...record } = row;
    return {
      item: toItem(kind, record as never, config.publicUrl),
      position: {
        sort: window.sort,
        hits: rankOf(record.hits),
        when: record.when as Date,
        id: record._id as ObjectId,
      },
    };
  });
}
