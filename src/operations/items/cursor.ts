import { ObjectId } from 'mongodb';

export type PublishedSort = 'recent' | 'hits' | 'relevance';

/**
 * A position in a `published` list: (when, _id) for `recent`; (hits, when, _id) for `hits`,
 * where a record without hits ranks as -1, below every count (MongoDB sorts a missing field
 * lowest); (nameMatch, hits, when, _id) for `relevance`, a search's order (docs/contract.md).
 */
export interface PublishedPosition {
  sort: PublishedSort;
  hits: number;
  when: Date;
  id: ObjectId;
  /** `relevance` only: 1 when the term is in the work's name (or media slug), 0 when only in its source. */
  nameMatch?: 0 | 1;
}

const POSITION_TEXT =
  /^pub:(recent|hits|relevance):(-?\d{1,16}):(-?\d{1,16}):([0-9a-f]{24})(?::([01]))?$/;

const positionText = ({ sort, hits, when, id, nameMatch }: PublishedPosition) =>
  `pub:${sort}:${hits}:${when.getTime()}:${id.toHexString()}${sort === 'relevance' ? `:${nameMatch ?? 0}` : ''}`;

function parsePosition(text: string): PublishedPosition | undefined {
  const match = POSITION_TEXT.exec(text);
  if (!match) return undefined;
  const sort = match[1] as PublishedSort;
  // A relevance position has its name-match rank; the others have none.
  if ((sort === 'relevance') !== (match[5] !== undefined)) return undefined;
  const when = new Date(Number(match[3]));
  if (Number.isNaN(when.getTime())) return undefined;
  return {
    sort,
    hits: Number(match[2]),
    when,
    id: ObjectId.createFromHexString(match[4] as string),
    ...(sort === 'relevance' ? { nameMatch: Number(match[5]) as 0 | 1 } : {}),
  };
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const fromBase64url = (cursor: string) => Buffer.from(cursor, 'base64url').toString('latin1');

/** Opaque to clients: base64url of `pub:<sort>:<hits>:<epoch ms>:<object id>[:<name match>]`. */
export const encodePublishedCursor = (position: PublishedPosition): string =>
  base64url(positionText(position));

export const decodePublishedCursor = (cursor: string): PublishedPosition | undefined =>
  parsePosition(fromBase64url(cursor));

/** Which way a list cursor reads from its position: down the list (`after`) or up it (`before`). */
export type ListWay = 'after' | 'before';

export interface ListCursor {
  way: ListWay;
  position: PublishedPosition;
}

/**
 * The one `cursor` of a REST or MCP list page, which carries its way: `nextCursor` reads the
 * page after this one, `previousCursor` the page before. Opaque: base64url of `<way>:<position>`.
 */
export const encodeListCursor = ({ way, position }: ListCursor): string =>
  base64url(`${way}:${positionText(position)}`);

export function decodeListCursor(cursor: string): ListCursor | undefined {
  const match = /^(after|before):(.*)$/s.exec(fromBase64url(cursor));
  const position = match && parsePosition(match[2] as string);
  return match && position ? { way: match[1] as ListWay, position } : undefined;
}
