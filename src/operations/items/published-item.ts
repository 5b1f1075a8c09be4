import type { RequestContext } from '../../context.js';
import type { ItemType } from '../../db/collections.js';
import { type KidlispPreview, previewKidlisp } from '../../domain/kidlisp/index.js';
import { storageKeyOf } from '../../domain/media.js';
import type { StoredObject } from '../../storage/index.js';
import { isCodeShaped } from './item.js';

/** A published item of the shared namespace (docs/contract.md, Codes and URLs), as a viewer page shows it. */
export type PublishedItem =
  | { type: 'kidlisp'; code: string; when: Date; source: string }
  | {
      type: 'piece';
      code: string;
      when: Date;
      name?: string;
      ext: 'mjs' | 'lisp' | 'lua';
      key: string;
      source?: string;
    }
  | { type: 'painting'; code: string; when: Date; key: string }
  | {
      type: 'tape';
      code: string;
      when: Date;
      key: string;
      format: 'zip' | 'mp4';
      totalDuration?: number;
    };

export type { ItemType };

/** A KidLisp item with the validator's preview, for its page (a raw .lisp file needs none). */
export type KidlispView = Extract<PublishedItem, { type: 'kidlisp' }> & { preview: KidlispPreview };

export const withPreview = (item: Extract<PublishedItem, { type: 'kidlisp' }>): KidlispView => ({
  ...item,
  preview: previewKidlisp(item.source),
});

export { isCodeShaped } from './item.js';

const pieceExt = (ext: string | undefined): 'mjs' | 'lisp' | 'lua' =>
  ext === 'lisp' || ext === 'lua' ? ext : 'mjs';

/** The extension of the item's raw file, `/<code>.<ext>`. */
export function rawExt(item: PublishedItem): string {
  switch (item.type) {
    case 'kidlisp':
      return 'lisp';
    case 'piece':
      return item.ext;
    case 'painting':
      return 'png';
    case 'tape':
      return item.format;
  }
}

/** The item types whose raw file can have this extension (none for any other extension). */
export function itemTypesWithRawExt(ext: string): ItemType[] {
  switch (ext) {
    case 'lisp':
      return ['kidlisp', 'piece'];
    case 'mjs':
    case 'lua':
      return ['piece'];
    case 'png':
      return ['painting'];
    case 'zip':
    case 'mp4':
      return ['tape'];
    default:
      return [];
  }
}

const ALL_ITEM_TYPES: readonly ItemType[] = ['kidlisp', 'piece', 'painting', 'tape'];

/** Looks a code up in the collections of the given item types (all four share the namespace). */
export async function findPublished(
  ctx: RequestContext,
  code: string,
  types: readonly ItemType[] = ALL_ITEM_TYPES,
): Promise<PublishedItem | null> {
  if (!isCodeShaped(code) || types.length === 0) return null;
  const { db } = ctx.services;
  const lookup = <T>(type: ItemType, find: () => Promise<T | null>) =>
    types.includes(type) ? find() : null;
  const [kidlisp, piece, painting, tape] = await Promise.all([
    lookup('kidlisp', () => db.kidlisp.findOne({ code })),
    lookup('piece', () => db.pieces.findOne({ code })),
    lookup('painting', () => db.paintings.findOne({ code })),
    lookup('tape', () => db.tapes.findOne({ code })),
  ]);
  if (kidlisp) return { type: 'kidlisp', code, when: kidlisp.when, source: kidlisp.source };
  if (piece) {
    const ext = pieceExt(piece.ext);
    const key = storageKeyOf(piece.slug, ext);
    return {
      type: 'piece',
      code,
      when: piece.when,
      ext,
      key,
      ...(piece.name ? { name: piece.name } : {}),
      ...(piece.source ? { source: piece.source } : {}),
    };
  }
  if (painting)
    return { type: 'painting', code, when: painting.when, key: storageKeyOf(painting.slug, 'png') };
  if (tape) {
    const duration = tape.totalDuration === undefined ? {} : { totalDuration: tape.totalDuration };
    return {
      type: 'tape',
      code,
      when: tape.when,
      key: storageKeyOf(tape.slug, tape.kind),
      format: tape.kind,
      ...duration,
    };
  }
  return null;
}

/** The item's file in object storage; null when it is missing there. */
export async function readPublishedFile(
  ctx: RequestContext,
  item: Exclude<PublishedItem, { type: 'kidlisp' }>,
): Promise<StoredObject | null> {
  return ctx.services.storage.get(item.key);
}

/** A piece's source text: the stored module, or the record's copy when storage has lost it. */
export async function pieceSource(
  ctx: RequestContext,
  item: Extract<PublishedItem, { type: 'piece' }>,
): Promise<string | null> {
  const stored = await readPublishedFile(ctx, item).catch(() => null);
  return stored ? stored.body.toString('utf8') : (item.source ?? null);
}
