import type { ObjectId } from 'mongodb';
import type { Database } from '../../db/client.js';
import type {
  ClockRecord,
  KidlispRecord,
  PaintingRecord,
  PieceRecord,
  TapeRecord,
} from '../../db/collections.js';
import { clockUrl, itemUrl } from '../publish/urls.js';

import type { ItemKind } from './kinds.js';

export { ITEM_KINDS, type ItemKind } from './kinds.js';

/** The kinds that share one code namespace (`{base_url}/<code>`). */
export const SHARED_KINDS = ['kidlisp', 'piece', 'painting', 'tape'] as const;

/** A clock melody is addressed `clock~<code>`, as in its URL; everything else by its bare code. */
export const CLOCK_PREFIX = 'clock~';

/**
 * The facts every face answers about a published item (GraphQL `item`, `GET /api/items/<code>`,
 * the MCP tool `get_item`), whatever the kind; a field a kind lacks is null.
 */
export interface Item {
  _id: ObjectId;
  kind: ItemKind;
  code: string;
  /** `clock~<code>` for a clock, the bare code otherwise: what `item(code:)` takes. */
  address: string;
  url: string;
  when: Date;
  /** Distinct clients that published or read it (docs/contract.md, popularity). */
  hits: number;
  /** The account id, or null when published anonymously. */
  user: string | null;
  /** KidLisp, melody, or the piece's source when its record keeps one. */
  source: string | null;
  /** The stored file as this service serves it (`{base_url}/<code>.<ext>`): pieces, paintings, tapes. */
  mediaUrl: string | null;
  /** The stored file's extension: mjs, lisp or lua (pieces), png, zip or mp4. */
  ext: string | null;
  /** Piece name, when one was given. */
  name: string | null;
  /** Tape duration in seconds, when known. */
  duration: number | null;
}

/** Codes as this service and the reference issue them; anything else is not looked up. */
export const isCodeShaped = (code: string) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(code);

/** An address split into its kind's namespace and bare code; null when it cannot be a code. */
export function parseAddress(
  address: string,
): { namespace: 'clock' | 'shared'; code: string } | null {
  const clock = address.startsWith(CLOCK_PREFIX);
  // Clock codes are lowercase; the reference lowercases them before looking them up.
  const code = clock ? address.slice(CLOCK_PREFIX.length).toLowerCase() : address;
  return isCodeShaped(code) ? { namespace: clock ? 'clock' : 'shared', code } : null;
}

export const addressOf = (kind: ItemKind, code: string) =>
  kind === 'clock' ? `${CLOCK_PREFIX}${code}` : code;

type AnyRecord = KidlispRecord | ClockRecord | PieceRecord | PaintingRecord | TapeRecord;

export function collectionOf(db: Database, kind: ItemKind) {
  const collections = {
    kidlisp: db.kidlisp,
    clock: db.clocks,
    piece: db.pieces,
    painting: db.paintings,
    tape: db.tapes,
  } as const;
  return collections[kind];
}

const extOf = (kind: ItemKind, record: Record<string, unknown>): string | null => {
  switch (kind) {
    case 'kidlisp':
    case 'clock':
      return null;
    case 'piece':
      return typeof record.ext === 'string' ? record.ext : 'mjs';
    case 'painting':
      return 'png';
    case 'tape':
      return typeof record.kind === 'string' ? record.kind : null;
  }
};

/** A stored record of a kind, as the facts every face answers. */
export function toItem(
  kind: ItemKind,
  record: AnyRecord & { _id?: ObjectId },
  publicUrl: string,
): Item {
  const fields = record as unknown as Record<string, unknown>;
  const ext = extOf(kind, fields);
  const str = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : null);
  return {
    _id: record._id as ObjectId,
    kind,
    code: record.code,
    address: addressOf(kind, record.code),
    url: kind === 'clock' ? clockUrl(publicUrl, record.code) : itemUrl(publicUrl, record.code),
    when: record.when,
    hits: typeof fields.hits === 'number' ? fields.hits : 0,
    user: str('user') || null,
    source: str('source'),
    mediaUrl: ext === null ? null : `${publicUrl}/${record.code}.${ext}`,
    ext,
    name: str('name'),
    duration: typeof fields.totalDuration === 'number' ? fields.totalDuration : null,
  };
}
