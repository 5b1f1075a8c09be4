import type { ObjectId } from 'mongodb';
import type { Database } from '../../db/client.js';
import type {
  ClockRecord,
  KidlispRecord,
  PaintingRecord,
  PieceRecord,
  TapeRecord,
} from '../../db/collections.js';
import { ITEM_KINDS, type ItemKind } from '../../domain/item-kinds.js';
import { type MediaExt, storageKeyOf } from '../../domain/media.js';
import { clockUrl, itemUrl } from '../publish/urls.js';

export {
  ITEM_KINDS,
  type ItemKind,
  SHARED_KINDS,
  type SharedKind,
} from '../../domain/item-kinds.js';

/** A clock melody is addressed `clock~<code>`, as in its URL; everything else by its bare code. */
export const CLOCK_PREFIX = 'clock~';

/**
 * A published item, whatever the kind, as every face reads it: GraphQL `item`, `GET
 * /api/items/<code>`, the MCP tool `get_item` and the viewer pages. A field a kind lacks is null.
 * Faces map it to their output field by field, so an internal field is never printed.
 */
interface ItemFields {
  _id: ObjectId;
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
  /** Internal: the object-storage key of the stored file (pieces, paintings, tapes); never printed. */
  storageKey: string | null;
  /** The work it was remixed from; null for an original (docs/contract.md, Remix lineage). */
  remixOf: RemixLink | null;
}

/** A published work named by its kind and code, as a remix's record links its parent. */
export interface RemixLink {
  kind: ItemKind;
  code: string;
  /** `clock~<code>` for a clock, else the code. */
  address: string;
}

/** The stored link (src/db/collections.ts, RemixOfField) as faces read it; null when absent or not one. */
function remixLinkOf(value: unknown): RemixLink | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, code } = value as Record<string, unknown>;
  if (typeof code !== 'string' || !(ITEM_KINDS as readonly unknown[]).includes(kind)) return null;
  return { kind: kind as ItemKind, code, address: addressOf(kind as ItemKind, code) };
}

/** An item of one kind (`Item<'piece'>`); `Item` alone is any kind, narrowed by `item.kind`. */
export type Item<K extends ItemKind = ItemKind> = K extends ItemKind
  ? ItemFields & { kind: K }
  : never;

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

/** Where each kind's records are kept: its field of the Database. */
const COLLECTION_OF = {
  kidlisp: 'kidlisp',
  clock: 'clocks',
  piece: 'pieces',
  painting: 'paintings',
  tape: 'tapes',
} as const satisfies Record<ItemKind, keyof Database>;

/** Reads that one field only: each field read of a traced request's database makes a traced collection. */
export const collectionOf = (db: Database, kind: ItemKind) => db[COLLECTION_OF[kind]];

const extOf = (kind: ItemKind, record: Record<string, unknown>): string | null => {
  switch (kind) {
    case 'kidlisp':
    case 'clock':
      return null;
    case 'piece':
      // mjs, unless the record names lisp or lua (records without ext are the reference's modules).
      return record.ext === 'lisp' || record.ext === 'lua' ? record.ext : 'mjs';
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
  const slug = str('slug');
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
    storageKey: ext === null || slug === null ? null : storageKeyOf(slug, ext as MediaExt),
    remixOf: remixLinkOf(fields.remixOf),
  } as Item;
}
