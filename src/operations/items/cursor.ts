import { ObjectId } from 'mongodb';

export type PublishedSort = 'recent' | 'hits';

/**
 * A position in a `published` list: (when, _id) for `recent`; (hits, when, _id) for `hits`,
 * where a record without hits ranks as -1, below every count (MongoDB sorts a missing field
 * lowest).
 */
export interface PublishedPosition {
  sort: PublishedSort;
  hits: number;
  when: Date;
  id: ObjectId;
}

const CURSOR_TEXT = /^pub:(recent|hits):(-?\d{1,16}):(-?\d{1,16}):([0-9a-f]{24})$/;

/** Opaque to clients: base64url of `pub:<sort>:<hits>:<epoch ms>:<object id>`. */
export function encodePublishedCursor(position: PublishedPosition): string {
  const { sort, hits, when, id } = position;
  return Buffer.from(`pub:${sort}:${hits}:${when.getTime()}:${id.toHexString()}`).toString(
    'base64url',
  );
}

export function decodePublishedCursor(cursor: string): PublishedPosition | undefined {
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const when = new Date(Number(match[3]));
  if (Number.isNaN(when.getTime())) return undefined;
  return {
    sort: match[1] as PublishedSort,
    hits: Number(match[2]),
    when,
    id: ObjectId.createFromHexString(match[4] as string),
  };
}
